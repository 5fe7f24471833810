"""Pipecat's own TTS services, unmodified, pointed at kokoro serve.

usage: pipecat_tts.py URL SCENARIO OUT [CA_FILE ENDPOINT REGION]

Each scenario runs one service in a Pipecat pipeline (pipecat.tests.utils.run_test), speaks,
and prints "ok:" lines; the Go test (server/agents_test.go) checks what the server counted and
the audio a speaking scenario writes to OUT/<name>.wav. Scenarios: openai, cartesia, elevenlabs,
sagemaker (speak a few short sentences, with word timestamps where the service takes them),
<name>-interrupt (an interruption mid-sentence) and <name>-real (speak one sentence, REAL, as
slowly as the real model on a busy CPU may).

sagemaker is Pipecat's DeepgramSageMakerTTSService: URL is then `kokoro emulate --tls` in front
of the server, CA_FILE the emulator's certificate authority, ENDPOINT and REGION its endpoint;
credentials come from the environment.
"""

import asyncio
import os
import sys
import time
import wave
from itertools import chain

from pipecat.frames.frames import (
    ErrorFrame,
    InterruptionFrame,
    TTSAudioRawFrame,
    TTSSpeakFrame,
    TTSStoppedFrame,
    TTSTextFrame,
)
from pipecat.observers.base_observer import BaseObserver
from pipecat.processors.frame_processor import FrameDirection
from pipecat.tests.utils import SleepFrame, run_test

URL, SCENARIO, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
WS = "ws" + URL[len("http"):]
# Cartesia's, ElevenLabs' and Deepgram's services ask for their pipeline's rate; OpenAI's speech
# API has no rate field, so Pipecat's OpenAI service runs at OpenAI's 24 kHz.
RATES = {"openai": 24000, "cartesia": 16000, "elevenlabs": 16000, "sagemaker": 16000}
TEXT = "One two three. Four five six seven. Eight."
REAL = "The quick brown fox jumps over the lazy dog."
LONG = "This is the first sentence of a long answer. " * 6
# How long a turn may take to end. A real-model run also keeps its services from ending a turn
# early on a gap between two chunks (stop_frame_timeout_s, docs/agents.md): on a busy CPU a
# gap can last seconds.
TURN_LIMIT = {"real": 180}
STOP_FRAME_TIMEOUT = {"real": 120}
# Pipecat's services connect as the pipeline starts, through the SageMaker emulator for one:
# on a busy machine that can take longer than run_test's 1 s default.
START_TIMEOUT = 60


def ok(msg):
    print("ok:", msg, flush=True)


def sagemaker_connection():
    """Points Pipecat's SageMaker client at the emulator.

    Pipecat has no setting for the endpoint's address: SageMakerBidiClient builds
    https://runtime.sagemaker.REGION.amazonaws.com:8443 itself and hands it to the SDK's Config,
    whose CRT transport trusts the system's certificate store only. So the one name Pipecat's
    client builds its connection with, Config, is wrapped: the same settings, but the emulator's
    address and a transport that also trusts the emulator's authority. Everything the service
    sends and reads (the path, query, messages and payload types) is Pipecat's unchanged code.
    """
    from awscrt import io as crt_io
    from pipecat.services.aws.sagemaker import bidi_client
    from smithy_http.aio.crt import AWSCRTHTTPClient, AWSCRTHTTPClientConfig

    ca_file, region = sys.argv[4], sys.argv[6]
    aws_config = bidi_client.Config

    class Transport(AWSCRTHTTPClient):
        """The SDK's CRT client, trusting CA_FILE too. The CRT client takes no TLS settings
        ("TODO: Support TLS configuration" in smithy_http.aio.crt), so its TLS context is
        replaced; the SDK copies its config for every call, and a copied CRT client starts
        from the default context again, so a copy is this one."""

        def __init__(self):
            super().__init__(client_config=AWSCRTHTTPClientConfig(force_http_2=True))
            opts = crt_io.TlsContextOptions()
            opts.override_default_trust_store_from_path(None, ca_file)
            self._tls_ctx = crt_io.ClientTlsContext(opts)

        def __deepcopy__(self, memo):
            return self

    def config(**kwargs):
        want = f"https://runtime.sagemaker.{region}.amazonaws.com:8443"
        assert kwargs.get("endpoint_uri") == want, kwargs
        return aws_config(**{**kwargs, "endpoint_uri": URL, "transport": Transport()})

    bidi_client.Config = config


def service(name, mode=""):
    kwargs = {"sample_rate": RATES[name]}
    if mode in STOP_FRAME_TIMEOUT:
        kwargs["stop_frame_timeout_s"] = STOP_FRAME_TIMEOUT[mode]
    if name == "openai":
        from pipecat.services.openai.tts import OpenAITTSService

        # The service takes only OpenAI's voice names; the server maps them (nova: af_nova).
        return OpenAITTSService(api_key="unused", base_url=URL + "/v1",
                                settings=OpenAITTSService.Settings(voice="nova", model="tts-1"), **kwargs)
    if name == "cartesia":
        from pipecat.services.cartesia.tts import CartesiaTTSService

        return CartesiaTTSService(api_key="unused", url=WS + "/tts/websocket",
                                  settings=CartesiaTTSService.Settings(voice="af_heart"), **kwargs)
    if name == "elevenlabs":
        from pipecat.services.elevenlabs.tts import ElevenLabsTTSService

        return ElevenLabsTTSService(api_key="unused", url=WS,
                                    settings=ElevenLabsTTSService.Settings(voice="af_heart"), **kwargs)
    if name == "sagemaker":
        from pipecat.services.deepgram.sagemaker.tts import DeepgramSageMakerTTSService

        sagemaker_connection()
        return DeepgramSageMakerTTSService(endpoint_name=sys.argv[5], region=sys.argv[6],
                                           settings=DeepgramSageMakerTTSService.Settings(voice="af_heart"),
                                           **kwargs)
    raise SystemExit(f"no service {name}")


class Watch(BaseObserver):
    """Sees the service end a turn (TTSStoppedFrame, after all of the turn's audio and words),
    and keeps what the service pushes, for when its teardown hangs (drive)."""

    def __init__(self, processor):
        super().__init__()
        self.processor = processor
        self.stopped = False
        self.down, self.up = [], []

    async def on_push_frame(self, data):
        if data.source is not self.processor:
            return
        if isinstance(data.frame, TTSStoppedFrame):
            self.stopped = True
        (self.down if data.direction == FrameDirection.DOWNSTREAM else self.up).append(data.frame)


def until(cond, limit):
    """Frames for run_test that wait until cond() holds or limit seconds have passed: run_test
    takes them one at a time, sleeping at each."""
    end = time.monotonic() + limit
    while not cond() and time.monotonic() < end:
        yield SleepFrame(sleep=0.05)


# How long the pipeline may take to end after its last frame was sent before its teardown
# counts as hung (drive).
TEARDOWN_LIMIT = 30


async def drive(name, processor, frames):
    """Runs frames through processor with run_test and returns (down, up, watch).

    Pipecat's SageMaker client can hang for good as it closes the session (close_session: the
    SDK's input stream waits to flush its end-of-stream frame into an HTTP/2 stream the
    endpoint has already ended once it answered the service's Close). For that service alone,
    a teardown still running TEARDOWN_LIMIT s after the last frame was sent is reported on a
    "note:" line and the frames the service pushed are checked as they are; the caller then
    exits at once.
    """
    watch = Watch(processor)
    sent = asyncio.Event()

    def then_mark(frames):
        yield from frames
        sent.set()

    test = asyncio.ensure_future(run_test(processor, observers=[watch], start_timeout=START_TIMEOUT,
                                          frames_to_send=then_mark(frames(watch))))
    if name != "sagemaker":
        down, up = await test
        return down, up, watch
    marked = asyncio.ensure_future(sent.wait())
    await asyncio.wait({test, marked}, return_when=asyncio.FIRST_COMPLETED)
    if not test.done():
        await asyncio.wait({test}, timeout=TEARDOWN_LIMIT)
    marked.cancel()
    if test.done():
        down, up = test.result()
        return down, up, watch
    print(f"note: {name}: the service's teardown (close_session) still runs {TEARDOWN_LIMIT} s after the "
          "last frame; checking what it pushed", flush=True)
    global HUNG
    HUNG = True
    return watch.down, watch.up, watch


HUNG = False


async def speak(name, mode):
    text = REAL if mode == "real" else TEXT
    down, up, _ = await drive(name, service(name, mode), lambda watch: chain(
        [TTSSpeakFrame(text)], until(lambda: watch.stopped, TURN_LIMIT.get(mode, 30))))
    errors = [f for f in list(down) + list(up) if isinstance(f, ErrorFrame)]
    assert not errors, errors
    audio = b"".join(f.audio for f in down if isinstance(f, TTSAudioRawFrame))
    rate = RATES[name]
    assert all(f.sample_rate == rate for f in down if isinstance(f, TTSAudioRawFrame))
    assert audio, [type(f).__name__ for f in down]
    assert any(isinstance(f, TTSStoppedFrame) for f in down), [type(f).__name__ for f in down]
    # The pipeline's own rate goes into the header, for the Go test to check.
    with wave.open(os.path.join(OUT, name + ".wav"), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(rate)
        f.writeframes(audio)
    ok(f"{name}: {len(audio) // 2} samples at {rate} Hz")
    words = [f for f in down if isinstance(f, TTSTextFrame) and f.text.strip()]
    if name not in ("openai", "sagemaker"):
        joined = " ".join(w.text.strip() for w in words)
        assert joined == text, (joined, [w.text for w in words])
        # Each word is stamped with when it is heard: in order, and within the audio.
        times = [w.pts for w in words]
        assert None not in times and times == sorted(times), times
        span, heard = (times[-1] - times[0]) / 1e9, len(audio) / 2 / rate
        assert 0 < span < heard, (span, heard)
        ok(f"{name}: word timestamps {[w.text for w in words]} over {span:.2f} s of {heard:.2f} s")


async def interrupt(name):
    # The answer is interrupted mid-sentence (the server's model holds it there), then the
    # agent's next turn speaks.
    down, up, _ = await drive(name, service(name), lambda watch: [
        TTSSpeakFrame(LONG), SleepFrame(sleep=1.5), InterruptionFrame(), SleepFrame(sleep=1),
        TTSSpeakFrame("Yes?"), SleepFrame(sleep=5)])
    errors = [f for f in list(down) + list(up) if isinstance(f, ErrorFrame)]
    assert not errors, errors
    audio = [f for f in down if isinstance(f, TTSAudioRawFrame)]
    assert len({f.context_id for f in audio}) == 2, "the next turn did not speak"
    first = sum(len(f.audio) for f in audio if f.context_id == audio[0].context_id)
    ok(f"{name}: interrupted after {first // 2} samples; the next turn spoke")


async def main():
    scenario, _, mode = SCENARIO.partition("-")
    await (interrupt(scenario) if mode == "interrupt" else speak(scenario, mode))
    if HUNG:
        # The hung teardown would hold the interpreter's exit too.
        sys.stdout.flush()
        os._exit(0)


asyncio.run(main())
