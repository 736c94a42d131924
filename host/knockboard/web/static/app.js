// The page follows the game by server-sent events; the browser's EventSource reconnects
// by itself after a network error, and this script opens a new one when the browser has
// given up (an answer that was not the stream, such as a refusal while the server restarts).
"use strict";

const RETRY_MS = 1000;
let source = null;

function el(id) { return document.getElementById(id); }

function text(id, value) {
  const node = el(id);
  node.hidden = !value;
  if (value) node.textContent = value;
}

function seatItem(seat, toMove) {
  const li = document.createElement("li");
  li.dataset.seat = seat.seat;
  if (toMove) li.className = "to-move";
  const mark = document.createElement("span");
  mark.className = "seat-mark";
  mark.style.background = seat.colour;
  mark.style.color = inkOn(seat.colour);
  mark.textContent = seat.letter;
  mark.setAttribute("aria-hidden", "true");
  const name = document.createElement("span");
  name.textContent = seat.name;
  li.append(mark, name);
  if (seat.score !== null) {
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = seat.score;
    li.append(score);
  }
  return li;
}

function inkOn(hex) {
  const n = parseInt(hex.slice(1), 16);
  const r = n >> 16, g = (n >> 8) & 255, b = n & 255;
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#101010" : "#f4f4f0";
}

function sheetItem(entry, last) {
  const li = document.createElement("li");
  li.value = entry.ply;
  if (last) li.className = "last";
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = entry.who;
  li.append(who, " " + entry.text);
  return li;
}

function render(snap) {
  document.title = `${snap.title} — Knockboard`;
  text("title", snap.id === null ? snap.title : `${snap.title} (game ${snap.id})`);
  el("board").innerHTML = snap.svg;
  text("step", snap.step ? `replay: step ${snap.step[0]} of ${snap.step[1]}` : "");
  text("result", snap.result);
  text("turn", snap.result ? "" : snap.turn);
  el("dice").textContent = snap.dice.join(" ");
  el("dice-line").hidden = snap.dice.length === 0;
  text("match", snap.match.join(" · "));
  const seats = snap.seats.map(s => seatItem(s, !snap.result && snap.turn.startsWith(s.name + " ")));
  el("seats").replaceChildren(...seats);
  el("last").hidden = !snap.last;
  el("last-move").textContent = snap.last ? `${snap.last.ply}. ${snap.last.who} ${snap.last.text}` : "";
  const lastPly = snap.last ? snap.last.ply : 0;
  const sheet = el("sheet");
  sheet.replaceChildren(...snap.sheet.map(e => sheetItem(e, e.ply === lastPly)));
  sheet.scrollTop = sheet.scrollHeight;
  document.body.dataset.plies = snap.plies;
  document.body.dataset.version = snap.version;
  document.body.dataset.over = snap.result ? "yes" : "no";
}

function connection(state, words) {
  document.body.dataset.connection = state;
  el("connection").textContent = words;
}

function open() {
  source = new EventSource("events");
  source.onopen = () => connection("live", "live");
  source.onmessage = event => render(JSON.parse(event.data));
  source.onerror = () => {
    connection("lost", "connection lost: reconnecting…");
    if (source.readyState === EventSource.CLOSED) {
      source = null;
      setTimeout(open, RETRY_MS);
    }
  };
}

open();
