"""Pipecat's own TTS services, unmodified, pointed at kokoro serve.

usage: pipecat_tts.py URL SCENARIO OUT

Each scenario runs one service in a Pipecat pipeline (pipecat.tests.utils.run_test), speaks,
and prints "ok:" lines; the Go test (server/agents_test.go) checks what the server counted.
Scenarios: openai, cartesia, elevenlabs (speak, with word timestamps where the service takes
them), and <name>-interrupt (an interruption mid-sentence).
"""

import asyncio
import os
import sys

from pipecat.frames.frames import (
    ErrorFrame,
    InterruptionFrame,
    TTSAudioRawFrame,
    TTSSpeakFrame,
    TTSStoppedFrame,
    TTSTextFrame,
)
from pipecat.tests.utils import SleepFrame, run_test

URL, SCENARIO, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
WS = "ws" + URL[len("http"):]
# Cartesia's and ElevenLabs' services ask for their pipeline's rate; OpenAI's speech API has
# no rate field, so Pipecat's OpenAI service runs at OpenAI's 24 kHz.
RATES = {"openai": 24000, "cartesia": 16000, "elevenlabs": 16000}
TEXT = "One two three. Four five six seven. Eight."
LONG = "This is the first sentence of a long answer. " * 6


def ok(msg):
    print("ok:", msg, flush=True)


def service(name):
    if name == "openai":
        from pipecat.services.openai.tts import OpenAITTSService

        # The service takes only OpenAI's voice names; the server maps them (nova: af_nova).
        return OpenAITTSService(api_key="unused", base_url=URL + "/v1", sample_rate=RATES[name],
                                settings=OpenAITTSService.Settings(voice="nova", model="tts-1"))
    if name == "cartesia":
        from pipecat.services.cartesia.tts import CartesiaTTSService

        return CartesiaTTSService(api_key="unused", url=WS + "/tts/websocket", sample_rate=RATES[name],
                                  settings=CartesiaTTSService.Settings(voice="af_heart"))
    if name == "elevenlabs":
        from pipecat.services.elevenlabs.tts import ElevenLabsTTSService

        return ElevenLabsTTSService(api_key="unused", url=WS, sample_rate=RATES[name],
                                    settings=ElevenLabsTTSService.Settings(voice="af_heart"))
    raise SystemExit(f"no service {name}")


async def speak(name):
    down, up = await run_test(service(name), frames_to_send=[TTSSpeakFrame(TEXT), SleepFrame(sleep=8)])
    errors = [f for f in list(down) + list(up) if isinstance(f, ErrorFrame)]
    assert not errors, errors
    audio = b"".join(f.audio for f in down if isinstance(f, TTSAudioRawFrame))
    rate = RATES[name]
    assert all(f.sample_rate == rate for f in down if isinstance(f, TTSAudioRawFrame))
    assert audio, [type(f).__name__ for f in down]
    assert any(isinstance(f, TTSStoppedFrame) for f in down), [type(f).__name__ for f in down]
    with open(os.path.join(OUT, name + ".pcm"), "wb") as f:
        f.write(audio)
    ok(f"{name}: {len(audio) // 2} samples at {rate} Hz")
    words = [f.text for f in down if isinstance(f, TTSTextFrame)]
    if name != "openai":
        joined = " ".join(w.strip() for w in words if w.strip())
        assert joined == TEXT, (joined, words)
        ok(f"{name}: word timestamps {words}")


async def interrupt(name):
    # The answer is interrupted mid-sentence (the server's model holds it there), then the
    # agent's next turn speaks.
    down, up = await run_test(service(name), frames_to_send=[
        TTSSpeakFrame(LONG), SleepFrame(sleep=1.5), InterruptionFrame(), SleepFrame(sleep=1),
        TTSSpeakFrame("Yes?"), SleepFrame(sleep=5)])
    errors = [f for f in list(down) + list(up) if isinstance(f, ErrorFrame)]
    assert not errors, errors
    audio = [f for f in down if isinstance(f, TTSAudioRawFrame)]
    assert len({f.context_id for f in audio}) == 2, "the next turn did not speak"
    first = sum(len(f.audio) for f in audio if f.context_id == audio[0].context_id)
    ok(f"{name}: interrupted after {first // 2} samples; the next turn spoke")


scenario, _, mode = SCENARIO.partition("-")
asyncio.run(interrupt(scenario) if mode == "interrupt" else speak(scenario))
