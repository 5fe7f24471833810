"""Python websockets against kokoro's bidirectional stream."""

import json
import os
import sys

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

URL, SCENARIO, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
WS = URL.replace("http", "ws", 1) + "/invocations-bidirectional-stream"


def ok(msg):
    print("ok:", msg, flush=True)


def send(ws, **msg):
    ws.send(json.dumps(msg))


def collect(ws, until):
    """Messages and audio bytes per request id until until(messages) holds."""
    msgs, audio, current = [], {}, None
    while not until(msgs):
        m = ws.recv(timeout=30)
        if isinstance(m, bytes):
            assert current is not None, "audio outside an utterance"
            audio[current] = audio.get(current, 0) + len(m)
            continue
        m = json.loads(m)
        msgs.append(m)
        if m["type"] == "synthesis_start":
            current = m["request_id"]
        elif m["type"] in ("synthesis_complete", "error") and m.get("request_id") == current:
            # A refusal of another message can arrive between this utterance's frames.
            current = None
    return msgs, audio


def ended(*ids):
    return lambda msgs: all(any(m["type"] in ("synthesis_complete", "error") and m.get("request_id") == i for m in msgs) for i in ids)


def kinds(msgs, rid):
    return [m["type"] + (":" + m["code"] if "code" in m else "") for m in msgs if m.get("request_id") == rid]


def session():
    with connect(WS) as ws:
        # Item 5: markdown in streamed LLM text neither ends the utterance nor is read out.
        for piece in ["## Answer\n", "First point. ", "\n---\n", "# ", "| | ", "Second point. ", "\u266a ", "Done."]:
            send(ws, type="text", text=piece, request_id="md")
        send(ws, type="flush", request_id="md")
        msgs, audio = collect(ws, ended("md"))
        assert kinds(msgs, "md") == ["synthesis_start", "synthesis_complete"], msgs
        assert audio.get("md", 0) > 0
        ok(f"markdown stream spoken to its end: {audio['md']} bytes")
        # Item 9: a cancelled queued utterance gets its start and its end; a refused one an error.
        # From here the Go side's model holds every chunk after the first, so "a" is still
        # speaking when the cancels arrive, however slowly they come.
        print("READY", flush=True)
        sys.stdin.readline()
        send(ws, text="One. Two. Three. Four. Five. Six. Seven. Eight.", request_id="a")
        send(ws, text="Queued.", request_id="b")
        send(ws, text="\U0001F600", request_id="c")  # item 10: nothing speakable
        send(ws, type="cancel", request_id="b")
        send(ws, type="cancel", request_id="a")
        msgs, _ = collect(ws, ended("a", "b", "c"))
        for rid in "ab":
            assert kinds(msgs, rid) == ["synthesis_start", "synthesis_complete"] and [m for m in msgs if m.get("request_id") == rid][-1]["cancelled"], msgs
        assert kinds(msgs, "c") == ["error:empty_text"], msgs
        ok("cancelled utterances, queued and speaking: start then complete(cancelled); emoji alone: error empty_text")
        # Item 8: a huge request id is refused and not echoed.
        send(ws, text="Hi.", request_id="x" * 100_000)
        msgs, _ = collect(ws, lambda ms: len(ms) >= 1)
        assert msgs[0]["type"] == "error" and msgs[0]["code"] == "invalid_request_id" and "request_id" not in msgs[0], msgs[0]
        ok("100 KB request_id refused, not echoed")
        send(ws, type="close")
        try:
            while True:
                ws.recv(timeout=10)
        except ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 1000, e
        ok("close: 1000")


def limit():
    # Item 6: streamed text past MAX_TEXT_CHARS: one error, the rest of that id dropped.
    with connect(WS) as ws:
        for i in range(40):
            send(ws, type="text", text=f"Piece number {i}. ", request_id="long")
        send(ws, text="Next.", request_id="next")
        msgs, _ = collect(ws, ended("next"))
        errors = [(m.get("request_id"), m["code"]) for m in msgs if m["type"] == "error"]
        assert errors == [("long", "text_too_long")], errors
        assert kinds(msgs, "long").count("synthesis_start") == 1, msgs
        ok("past the limit: one text_too_long, no duplicate_request_id, no second start")


def utf8():
    # Item 9: a text frame that is not UTF-8 fails the connection with 1007 (RFC 6455).
    with connect(WS) as ws:
        ws.send(b'{"text":"caf\xe9"}', text=True)
        try:
            m = ws.recv(timeout=10)
            raise AssertionError(f"answered {m!r}")
        except ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 1007, e
    ok("invalid UTF-8 text frame: close 1007")


def drain():
    # Item 7: an utterance cut by the drain budget gets an error, the session a 1001 close frame.
    with connect(WS) as ws:
        send(ws, text="Long sentence. " * 200, request_id="long")
        m = json.loads(ws.recv(timeout=30))
        assert m["type"] == "synthesis_start", m
        print("READY", flush=True)
        msgs = []
        try:
            while True:
                m = ws.recv(timeout=30)
                if isinstance(m, str):
                    msgs.append(json.loads(m))
        except ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == 1001, e
        assert kinds(msgs, "long") == ["error:shutting_down"], msgs
    ok("cut by the drain: error shutting_down, close 1001")


def timestamps():
    # Issue 30: the words of each frame before it, and after a barge-in what was sent.
    text = "One two three. Four five six. Seven eight."
    with connect(WS) as ws:
        send(ws, text=text, request_id="t", timestamps=True)
        m = json.loads(ws.recv(timeout=30))
        assert m["type"] == "synthesis_start", m
        received, words, head, cancelled = 0, {}, None, False
        while True:
            m = ws.recv(timeout=30)
            if isinstance(m, bytes):
                assert head is not None, "a binary frame without its audio message"
                assert head["offset"] == received // 2 and head["samples"] == len(m) // 2, (head, received, len(m))
                received += len(m)
                head = None
                if not cancelled:
                    # The first sentence has arrived; the server holds the second back.
                    send(ws, type="cancel", request_id="t")
                    cancelled = True
                continue
            m = json.loads(m)
            if m["type"] == "audio":
                assert head is None, "two audio messages in a row"
                head = m
                for w in m.get("words", []):
                    assert m["offset"] <= w["end"] and w["start"] < m["offset"] + m["samples"], (w, m)
                    words[w["index"]] = w
                continue
            assert m["type"] == "synthesis_complete" and m["request_id"] == "t", m
            break
        assert m["cancelled"] is True, m
        sent = m["sent"]
        assert sent["samples"] == received // 2, (sent, received)
        assert abs(sent["ms"] - received / 2 / 24.0) < 0.01, sent
        got = [words[i]["word"] for i in sorted(words)]
        assert got == text.split()[: len(got)] and sorted(words) == list(range(len(words))), got
        last = sent["last_word"]
        assert last == words[max(words)] and last["end"] <= sent["samples"], (last, sent)
        assert sent["words"] == len(words), sent
        cut = sent["cut_word"]
        assert cut["index"] == last["index"] + 1 and cut["word"] == text.split()[cut["index"]], cut
        ok(f"cancelled after {sent['ms']:.0f} ms sent, {received} bytes received: "
           f"last word sent whole {last['word']!r} ({last['start_ms']:.0f}-{last['end_ms']:.0f} ms), cut at {cut['word']!r}")
        # Without timestamps the protocol is as it was: no audio messages. (The server's model
        # stops holding chunks back once the Go side reads READY.)
        print("READY", flush=True)
        sys.stdin.readline()
        send(ws, text="Plain.", request_id="p")
        msgs, audio = collect(ws, ended("p"))
        assert kinds(msgs, "p") == ["synthesis_start", "synthesis_complete"] and audio["p"] > 0, msgs
        ok("no timestamps asked: start, binary frames, complete")


{"session": session, "limit": limit, "utf8": utf8, "drain": drain, "timestamps": timestamps}[SCENARIO]()
