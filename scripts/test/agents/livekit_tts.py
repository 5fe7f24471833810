"""LiveKit Agents' OpenAI TTS plugin, unmodified, pointed at kokoro serve.

usage: livekit_tts.py URL SCENARIO OUT

speak: synthesizes a text and checks the audio; interrupt: stops a long answer after its
first audio, as an agent does on barge-in, then speaks the next turn; real: speaks one
sentence, REAL. Prints "ok:" lines and writes the audio of the last synthesis to OUT/openai.wav;
the Go test (server/agents_test.go) checks what the server counted and the audio.
"""

import asyncio
import os
import sys
import wave

from livekit.plugins import openai

URL, SCENARIO, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
TEXT = "One two three. Four five six seven. Eight."
REAL = "The quick brown fox jumps over the lazy dog."
LONG = "This is the first sentence of a long answer. " * 6


def ok(msg):
    print("ok:", msg, flush=True)


async def main():
    # OpenAI's voice names only, as the plugin offers them; the server maps them.
    tts = openai.TTS(base_url=URL + "/v1", api_key="unused", model="tts-1", voice="nova", response_format="pcm")
    try:
        if SCENARIO == "interrupt":
            stream = tts.synthesize(LONG)
            async for ev in stream:
                ok(f"first audio: {ev.frame.samples_per_channel} samples; interrupting")
                break
            await stream.aclose()
        text = {"speak": TEXT, "real": REAL}.get(SCENARIO, "Yes?")
        frames = [ev.frame async for ev in tts.synthesize(text)]
        samples = sum(f.samples_per_channel for f in frames)
        assert frames and all(f.sample_rate == 24000 and f.num_channels == 1 for f in frames), frames
        assert samples > 2400, samples
        with wave.open(os.path.join(OUT, "openai.wav"), "wb") as f:
            f.setnchannels(1)
            f.setsampwidth(2)
            f.setframerate(frames[0].sample_rate)
            f.writeframes(b"".join(bytes(fr.data) for fr in frames))
        ok(f"{SCENARIO}: {samples} samples at 24000 Hz in {len(frames)} frames")
    finally:
        await tts.aclose()


asyncio.run(main())
