#!/usr/bin/env python3
"""kokoro-onnx 0.6.1 behind one lock, as the reference container serves it, for
scripts/measure/perf_compare.sh: POST /v1/audio/speech {"input", "voice", "speed"} answers the whole
utterance as raw PCM16 24 kHz once it is synthesized; one synthesis at a time.

    .venv-peers/bin/python scripts/peers/peer_kokoro_onnx.py --model M --voices V.npz --port P
"""
import argparse
import threading

import numpy as np
import uvicorn
from fastapi import FastAPI
from fastapi.responses import Response
from kokoro_onnx import Kokoro
from pydantic import BaseModel


class Speech(BaseModel):
    input: str
    voice: str = "af_heart"
    speed: float = 1.0
    model: str = "kokoro"
    response_format: str = "pcm"
    stream: bool | None = None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--voices", required=True)
    ap.add_argument("--port", type=int, required=True)
    args = ap.parse_args()
    kokoro = Kokoro(args.model, args.voices)
    lock = threading.Lock()
    app = FastAPI()

    @app.get("/health")
    def health():
        return {"status": "ok"}

    @app.post("/v1/audio/speech")
    def speech(req: Speech):
        with lock:
            lang = "en-gb" if req.voice.startswith("b") else "en-us"
            audio, _ = kokoro.create(req.input, voice=req.voice, speed=req.speed, lang=lang)
        pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
        return Response(content=pcm, media_type="audio/pcm")

    # Warm up as the other servers do before they answer.
    kokoro.create("Hello there.", voice="af_heart", lang="en-us")
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
