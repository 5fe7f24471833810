// The page's client: kokoro's WebSocket with word timestamps, played through Web Audio. Each
// word is highlighted while its samples play; Stop cancels the utterance on the server
// (barge-in) and shows the words that were heard whole.
"use strict";

const RATE = 24000;
const $ = (id) => document.getElementById(id);
// state is what a test reads: the samples played, the words highlighted in order, and whether
// the utterance ended.
const state = (window.kokoroState = { played: 0, highlighted: [], done: false, heard: null });

let ws, ctx, id = 0, current = null;

function connect() {
  if (ws && ws.readyState <= 1) return Promise.resolve();
  ws = new WebSocket(location.origin.replace(/^http/, "ws") + "/invocations-bidirectional-stream");
  ws.binaryType = "arraybuffer";
  ws.onmessage = onMessage;
  return new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
}

// An utterance: its words (by index), the audio frames scheduled (sample offset, start time
// on the audio clock), and where the next frame goes.
function speak() {
  stopAudio();
  ctx = ctx || new AudioContext({ sampleRate: RATE });
  ctx.resume();
  current = { id: "page-" + ++id, words: new Map(), frames: [], next: 0, offset: 0, ended: false };
  Object.assign(state, { played: 0, highlighted: [], done: false, heard: null });
  $("words").textContent = "";
  $("heard").textContent = "";
  $("stop").disabled = false;
  $("status").textContent = "speaking…";
  const msg = { text: $("text").value, voice: $("voice").value.trim(), speed: Number($("speed").value),
    request_id: current.id, timestamps: true };
  if ($("lang").value) msg.lang = $("lang").value;
  return connect().then(() => { ws.send(JSON.stringify(msg)); requestAnimationFrame(tick); });
}

function onMessage(ev) {
  const u = current;
  if (!u) return;
  if (typeof ev.data !== "string") return play(u, ev.data);
  const m = JSON.parse(ev.data);
  if (m.request_id !== u.id) return;
  if (m.type === "audio") {
    u.offset = m.offset;
    for (const w of m.words || []) if (!u.words.has(w.index)) addWord(u, w);
  } else if (m.type === "synthesis_complete") {
    u.ended = true;
  } else if (m.type === "error") {
    u.ended = true;
    $("status").textContent = m.message;
    state.done = true;
  }
}

function addWord(u, w) {
  const span = document.createElement("span");
  span.textContent = w.word;
  u.words.set(w.index, { ...w, span });
  $("words").append(span, " ");
}

// play schedules one frame of PCM16 right after the one before (or now, after a gap).
function play(u, buf) {
  const pcm = new Int16Array(buf);
  const audio = ctx.createBuffer(1, pcm.length, RATE);
  const ch = audio.getChannelData(0);
  for (let i = 0; i < pcm.length; i++) ch[i] = pcm[i] / 32768;
  const src = ctx.createBufferSource();
  src.buffer = audio;
  src.connect(ctx.destination);
  const at = Math.max(u.next, ctx.currentTime + 0.05);
  src.start(at);
  u.frames.push({ offset: u.offset, at, n: pcm.length, src });
  u.offset += pcm.length;
  u.next = at + pcm.length / RATE;
}

// position is the utterance's sample playing now.
function position(u) {
  let pos = 0;
  for (const f of u.frames) {
    const into = (ctx.currentTime - f.at) * RATE;
    if (into <= 0) break;
    pos = f.offset + Math.min(into, f.n);
  }
  return pos;
}

function tick() {
  const u = current;
  if (!u) return;
  const pos = position(u);
  state.played = pos;
  // The word highlighted is the last one whose sound has begun, until the next begins: a
  // short word that a slow frame skipped past is still marked, in order.
  const words = [...u.words.values()].sort((a, b) => a.index - b.index);
  const begun = words.filter((w) => w.start <= pos);
  const last = begun.length ? begun[begun.length - 1] : null;
  for (const w of begun) if (!state.highlighted.includes(w.index)) state.highlighted.push(w.index);
  for (const w of words) {
    w.span.classList.toggle("now", w === last && pos < u.offset);
    w.span.classList.toggle("heard", w.end <= pos);
  }
  if (u.ended && u.frames.length > 0 && ctx.currentTime >= u.next) return finish(u, "done");
  if (u.ended && u.frames.length === 0 && !state.done) return finish(u, $("status").textContent);
  requestAnimationFrame(tick);
}

function finish(u, status) {
  state.done = true;
  $("stop").disabled = true;
  $("status").textContent = status;
  current = null;
}

function stopAudio() {
  if (!current) return;
  for (const f of current.frames) try { f.src.stop(); } catch (e) { /* not started */ }
}

// stop cuts the speech: the server stops synthesizing, and the page shows what was heard.
function stop() {
  const u = current;
  if (!u) return;
  const pos = position(u);
  ws.send(JSON.stringify({ type: "cancel", request_id: u.id }));
  stopAudio();
  const heard = [...u.words.values()].filter((w) => w.end <= pos).map((w) => w.word);
  state.heard = heard;
  $("heard").textContent = "Heard: " + (heard.join(" ") || "nothing");
  for (const w of u.words.values()) w.span.classList.remove("now");
  finish(u, "stopped");
}

$("form").onsubmit = (e) => { e.preventDefault(); speak(); };
$("stop").onclick = stop;
$("speed").oninput = () => { $("speedOut").textContent = Number($("speed").value).toFixed(1); };
fetch("v1/audio/voices").then((r) => r.json()).then((v) => {
  for (const name of v.voices || []) $("voices").append(new Option(name, name));
  for (const lang of v.langs || []) $("lang").append(new Option(lang, lang));
});
window.kokoroSpeak = speak;
window.kokoroStop = stop;
