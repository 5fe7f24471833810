"""The official Python SDK of SageMaker's bidirectional stream against `kokoro emulate --tls`.

    python sagemaker_http2_sdk.py URL CA_FILE ENDPOINT REGION OUT_DIR

aws-sdk-sagemaker-runtime-http2 (Python >= 3.12, pinned in scripts/setup/requirements-sdk.txt)
speaks HTTP/2 only over TLS with ALPN, through the AWS CRT HTTP client. One session: an
utterance (UTF8 part in, BINARY parts out), an utterance with a voice the server does not have
(an in-session error message), and an utterance after it, all on the same stream. Prints one
`ok: ...` line per check and writes the PCM of each spoken utterance to OUT_DIR/<id>.pcm;
credentials come from the environment.
"""

import asyncio
import json
import os
import sys

from awscrt import io as crt_io
from aws_sdk_sagemaker_runtime_http2.client import AsyncSageMakerRuntimeHTTP2Client
from aws_sdk_sagemaker_runtime_http2.config import AsyncSageMakerRuntimeHTTP2Config
from aws_sdk_sagemaker_runtime_http2.models import (
    InvokeEndpointWithBidirectionalStreamInput,
    RequestPayloadPart,
    RequestStreamEventPayloadPart,
    ResponseStreamEventPayloadPart,
)
from smithy_http.aio.crt import AWSCRTHTTPClient, AWSCRTHTTPClientConfig


def transport(ca_file):
    """The CRT HTTP client, trusting the emulator's certificate authority.

    The SDK (0.12.0) takes no TLS settings for its CRT client ("TODO: Support TLS
    configuration" in smithy_http.aio.crt), and CRT reads the system's trust store only,
    so the client's TLS context is replaced by one that also trusts CA_FILE.
    """
    client = AWSCRTHTTPClient(client_config=AWSCRTHTTPClientConfig(force_http_2=True))
    opts = crt_io.TlsContextOptions()
    opts.override_default_trust_store_from_path(None, ca_file)
    client._tls_ctx = crt_io.ClientTlsContext(opts)
    return client


async def main(url, ca_file, endpoint, region, out):
    config = AsyncSageMakerRuntimeHTTP2Config.resolve
    cfg = await config(endpoint_uri=url, region=region, transport=transport(ca_file),
                       aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
                       aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"])
    client = AsyncSageMakerRuntimeHTTP2Client(config=cfg)
    stream = await client.invoke_endpoint_with_bidirectional_stream(
        InvokeEndpointWithBidirectionalStreamInput(endpoint_name=endpoint, target_variant="AllTraffic"))

    async def send(msg):
        part = RequestPayloadPart(bytes_=json.dumps(msg).encode(), data_type="UTF8", completion_state="COMPLETE")
        await stream.input_stream.send(RequestStreamEventPayloadPart(value=part))

    _, output = await stream.await_output()
    events = aiter(output)

    async def utterance(msg):
        """Sends one utterance and reads until it completes or fails: (pcm, parts, error)."""
        await send(msg)
        pcm, parts = bytearray(), 0
        while True:
            ev = await asyncio.wait_for(anext(events), 60)
            if not isinstance(ev, ResponseStreamEventPayloadPart):
                raise AssertionError(f"unexpected event {ev!r}")
            p = ev.value
            if p.data_type == "BINARY":
                pcm += p.bytes_
                parts += 1
                continue
            m = json.loads(p.bytes_)
            if m["type"] == "synthesis_complete":
                return bytes(pcm), parts, None
            if m["type"] == "error":
                return bytes(pcm), parts, m

    pcm, parts, err = await utterance({"text": "Hello there. This came through the official SDK.", "request_id": "first"})
    assert err is None and parts >= 1 and len(pcm) > 24000, (err, parts, len(pcm))
    open(os.path.join(out, "first.pcm"), "wb").write(pcm)
    print(f"ok: first utterance: {parts} BINARY parts, {len(pcm)} bytes of PCM")

    pcm, parts, err = await utterance({"text": "Nobody speaks this.", "voice": "xx_nobody", "request_id": "bad"})
    assert err is not None and err.get("code") == "unknown_voice" and parts == 0, (err, parts)
    print(f"ok: in-session error {err['code']}, the session stays open")

    pcm, parts, err = await utterance({"text": "And the session goes on.", "request_id": "after"})
    assert err is None and parts >= 1, (err, parts)
    open(os.path.join(out, "after.pcm"), "wb").write(pcm)
    print(f"ok: utterance after the error: {parts} BINARY parts, {len(pcm)} bytes of PCM")

    # Ending the request stream ends the session: the emulator closes the container's socket
    # and the response ends without an error event.
    await stream.input_stream.close()
    rest = [ev async for ev in events]
    print(f"ok: closed ({len(rest)} event(s) after close)")
    await stream.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:6]))
