"""boto3's InvokeEndpointWithResponseStream and InvokeEndpoint against `kokoro emulate --tls`.

    python sagemaker_boto3.py URL CA_FILE ENDPOINT REGION OUT_DIR

Verifies the emulator's certificate with CA_FILE (boto3's verify=, as AWS_CA_BUNDLE would).
Writes the streamed WAV to OUT_DIR/stream.wav and the complete one to OUT_DIR/invoke.wav;
prints one `ok: ...` line per check; credentials come from the environment.
"""

import os
import sys

import boto3
from botocore.config import Config


def main(url, ca_file, endpoint, region, out):
    rt = boto3.client("sagemaker-runtime", endpoint_url=url, region_name=region, verify=ca_file,
                      config=Config(retries={"max_attempts": 1}))
    body = b'{"text": "Hello there. This is boto3 reading a response stream."}'
    resp = rt.invoke_endpoint_with_response_stream(EndpointName=endpoint, Body=body,
                                                   ContentType="application/json", Accept="audio/wav")
    wav, parts = bytearray(), 0
    for ev in resp["Body"]:
        assert "PayloadPart" in ev, ev
        wav += ev["PayloadPart"]["Bytes"]
        parts += 1
    assert wav[:4] == b"RIFF" and len(wav) > 44 + 24000, len(wav)
    open(os.path.join(out, "stream.wav"), "wb").write(wav)
    print(f"ok: response stream: {parts} PayloadParts, {len(wav)} bytes, variant {resp.get('InvokedProductionVariant')}")

    resp = rt.invoke_endpoint(EndpointName=endpoint, Body=b'{"text": "Hello there.", "stream": false}',
                              ContentType="application/json", Accept="audio/wav")
    data = resp["Body"].read()
    assert data[:4] == b"RIFF", data[:16]
    open(os.path.join(out, "invoke.wav"), "wb").write(data)
    print(f"ok: invoke_endpoint: {len(data)} bytes")

    try:
        rt.invoke_endpoint(EndpointName="no-such-endpoint", Body=body, ContentType="application/json")
        raise AssertionError("an unknown endpoint was invoked")
    except rt.exceptions.ValidationError as e:
        print(f"ok: unknown endpoint: ValidationError ({e.response['Error']['Message']})")


if __name__ == "__main__":
    main(*sys.argv[1:6])
