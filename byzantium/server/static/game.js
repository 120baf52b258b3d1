// The game page: this seat's view of one game, kept live over the WebSocket; the
// question with its choices (buttons, reachable with Tab and Enter, or a click on the
// board); the chronicle with our summary of each rule it names; the end and the record.
// Everything shown is what the server sent: no rule of either game is in this file.
import { ApiError, call, seatOf, showProblem, socketUrl } from "./api.js";
import { pointAt, resetBoard, setTargets, showPicture, wireBoard } from "./board.js";

let current = null; // {gameId, token, seat, info, view, socket, since, summaries, closed}

function setConnection(text) { document.getElementById("connection").textContent = text; }

// The rule index's summaries for a game (our words), fetched once per game.
const summaryCache = new Map();
async function summaries(game) {
  if (!summaryCache.has(game)) {
    let found = {};
    try { found = (await call("GET", `/api/rules/${encodeURIComponent(game)}`)).rules || {}; } catch { found = {}; }
    summaryCache.set(game, found);
  }
  return summaryCache.get(game);
}

// A line of text with each rule reference, "[10.6]" or "(10.6.5)", followed by our
// summary of that rule where the index has one.
const RULE = /([[(])(\d+(?:\.\d+)+[a-z]?)([\])])/g;
function withRules(text, told = new Set()) {
  const span = document.createElement("span");
  let last = 0;
  for (const match of text.matchAll(RULE)) {
    span.append(text.slice(last, match.index));
    const rule = document.createElement("span");
    rule.className = "rule";
    rule.textContent = match[0];
    rule.dataset.rule = match[2];
    span.append(rule);
    const said = current && current.summaries[match[2]];
    if (said) rule.title = said;
    if (said && !told.has(match[2])) {
      told.add(match[2]);
      const s = document.createElement("span");
      s.className = "summary";
      s.textContent = ` (${said})`;
      span.append(s);
    }
    last = match.index + match[0].length;
  }
  span.append(text.slice(last));
  return span;
}

// Who took a step: a seat's name, or chance (a negative seat: the server's dice).
function actorName(actor) {
  if (typeof actor === "string") return actor;
  if (typeof actor !== "number") return "";
  if (actor < 0) return "Chance";
  const seats = current.info ? current.info.seats : [];
  return seats[actor] ? seats[actor].name : `Seat ${actor}`;
}

// A chance step's outcomes and their odds (given only where this reader may know
// them), the one drawn marked where he may see it.
function oddsList(odds) {
  const list = document.createElement("ul");
  list.className = "odds";
  for (const outcome of odds) {
    const item = document.createElement("li");
    if (outcome.drawn) item.className = "drawn";
    item.textContent = `${outcome.probability}: ${outcome.text}${outcome.drawn ? " (drawn)" : ""}`;
    list.append(item);
  }
  return list;
}

function addChronicle(entries) {
  const list = document.getElementById("chronicle");
  for (const entry of entries || []) {
    if (entry.seq <= current.since) continue;
    current.since = entry.seq;
    const li = document.createElement("li");
    li.dataset.seq = String(entry.seq);
    li.value = entry.seq;
    const told = new Set(); // each rule's summary once per step, its number always
    const actor = actorName(entry.actor);
    if (actor) {
      const who = document.createElement("span");
      who.className = "actor";
      who.textContent = `${actor}: `;
      li.append(who);
    }
    const lines = document.createElement("ul");
    lines.className = "lines";
    entry.lines.forEach((line, i) => {
      if (i === 0 && actor) {
        // The step's line names who took it ("Empire: ..."): the name is shown once.
        const named = line.toLowerCase().startsWith(`${actor.toLowerCase()}: `);
        li.append(withRules(named ? line.slice(actor.length + 2) : line, told));
        return;
      }
      const item = document.createElement("li");
      item.append(withRules(line, told));
      lines.append(item);
    });
    if (lines.children.length) li.append(lines);
    if (entry.odds && entry.odds.length) li.append(oddsList(entry.odds));
    list.prepend(li); // newest first, under the question
  }
}

// One choice at a time: `pending` is the seq a choice in flight answers; a newer view
// (the socket may bring it before the answer) ends the wait, since it follows that choice.
async function choose(action) {
  if (!current || (current.pending !== null && current.pending >= current.view.seq)) return;
  const { gameId, token, view } = current;
  const here = current;
  here.pending = view.seq;
  for (const b of document.querySelectorAll("#choices button")) b.disabled = true;
  try {
    const got = await call("POST", `/api/games/${encodeURIComponent(gameId)}/act`, {
      token, body: { seq: view.seq, index: action.index },
    });
    if (here.pending === view.seq) here.pending = null;
    if (got && got.view) await showView(got.view);
  } catch (error) {
    if (here.pending === view.seq) here.pending = null;
    // A stale choice (someone, or a reload, answered first) is no fault: fetch the view.
    if (!(error instanceof ApiError && error.code === "stale")) {
      showProblem(error.rule ? `${error.message} [${error.rule}]` : error.message);
    }
    await refresh(true);
  }
}

// A click on the board: the one action naming that element is chosen; where several
// do (moving or attacking with the force of one hex), they are pointed out in the menu
// and the first takes the focus.
function pickedOnBoard(actions) {
  if (actions.length === 1) { choose(actions[0]); return; }
  const indexes = new Set(actions.map((a) => String(a.index)));
  let first = null;
  for (const b of document.querySelectorAll("#choices button")) {
    const named = indexes.has(b.dataset.index);
    b.classList.toggle("pointed", named);
    if (named && !first) first = b;
  }
  if (first) { first.focus(); first.scrollIntoView({ block: "nearest" }); }
}

function showQuestion(view) {
  const box = document.getElementById("question");
  const choices = document.getElementById("choices");
  const question = view.question;
  const mine = question && current.seat !== null && question.seat === current.seat;
  box.hidden = !mine;
  choices.replaceChildren();
  if (!mine) { setTargets([], null); return; }
  document.getElementById("question-text").textContent = question.text;
  const rule = document.getElementById("question-rule");
  rule.replaceChildren();
  if (question.rule) {
    rule.append(withRules(`[${question.rule}]`));
    if (question.rule_summary && !current.summaries[question.rule]) rule.append(` (${question.rule_summary})`);
  }
  const onBoard = [];
  // The choices the game cautions against (passing, ending a phase, throwing something
  // away) come last, so that the first choice, which takes the focus, is never one.
  const ordered = [...question.actions.filter((a) => !a.caution), ...question.actions.filter((a) => a.caution)];
  for (const action of ordered) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = action.caution ? "choice careful" : "choice";
    button.dataset.index = String(action.index);
    button.dataset.number = String(action.number);
    button.textContent = action.text;
    if (action.caution) {
      const why = document.createElement("span");
      why.className = "caution";
      why.textContent = ` (careful: ${action.caution})`;
      button.append(why);
    }
    if (action.targets && action.targets.length) {
      button.dataset.targets = JSON.stringify(action.targets);
      onBoard.push({ selectors: action.targets, action });
    }
    button.addEventListener("click", () => choose(action));
    button.addEventListener("mouseenter", () => pointAt(action));
    button.addEventListener("focus", () => pointAt(action));
    button.addEventListener("mouseleave", () => pointAt(null));
    choices.append(button);
  }
  setTargets(onBoard, pickedOnBoard);
  // Keyboard play: the first choice takes the focus unless the reader is elsewhere.
  const active = document.activeElement;
  if (!active || active === document.body || !active.isConnected) choices.firstElementChild?.focus();
}

async function showView(view) {
  if (!current || view.game_id !== current.gameId) return;
  // An older push, overtaken, or the same position again (the answer to an act and the
  // socket's push both bring it): the page stays as it is, the focus where it is.
  if (current.view && view.seq <= current.view.seq && view.status === current.view.status) {
    addChronicle(view.chronicle);
    armStill(current.view);
    return;
  }
  current.view = view;
  if (current.pending !== null && view.seq > current.pending) current.pending = null;
  const main = document.getElementById("game");
  main.dataset.seq = String(view.seq);
  main.dataset.status = view.status;
  document.getElementById("heading").textContent = view.heading || "";
  document.getElementById("status-line").textContent = view.status_line || "";
  addChronicle(view.chronicle);
  showQuestion(view);
  const waiting = document.getElementById("waiting");
  const asked = view.question && current.seat !== null && view.question.seat === current.seat;
  waiting.hidden = asked || view.status === "over";
  if (!waiting.hidden) {
    const seats = current.info ? current.info.seats : [];
    const who = view.to_act === null || view.to_act === undefined ? null
      : (seats[view.to_act] ? seats[view.to_act].name : `seat ${view.to_act}`);
    waiting.textContent = current.seat === null
      ? `You are watching${who ? `: ${who} to act` : ""}.`
      : `Waiting for ${who || "the dice"}…`;
  }
  const result = document.getElementById("result");
  result.hidden = !view.result;
  if (view.result) {
    const r = view.result;
    const lines = Array.isArray(r.text) ? [...r.text] : [String(r.text || "")];
    if (r.level) lines.push(`Level: ${r.level}`);
    const box = document.getElementById("result-text");
    box.replaceChildren();
    for (const line of lines.filter(Boolean)) {
      const p = document.createElement("span");
      p.className = "result-line";
      p.append(withRules(line));
      box.append(p);
    }
    document.getElementById("record-link").href = `/api/games/${encodeURIComponent(current.gameId)}/record`;
    document.getElementById("record-link").setAttribute("download", `${current.gameId}.json`);
  }
  if (view.picture) {
    try { await showPicture(view.picture); } catch (error) { showProblem(error.message); }
  }
  armStill(view);
}

// While others (or the dice) are to act, the socket brings their moves; should none
// come for a while (a push lost on the way), the view is read again.
function armStill(view) {
  clearTimeout(current.stillTimer);
  const asked = view.question && current.seat !== null && view.question.seat === current.seat;
  if (view.status === "playing" && !asked) {
    const here = current;
    here.stillTimer = setTimeout(() => { if (current === here && !here.closed) refresh(); }, 4000);
  }
}

async function refresh(again = false) {
  if (!current) return;
  if (again && current.view) current.view = { ...current.view, seq: -1 }; // redraw it
  try {
    const since = current.since >= 0 ? `?since=${current.since}` : "";
    const view = await call("GET", `/api/games/${encodeURIComponent(current.gameId)}/view${since}`, { token: current.token });
    await showView(view);
  } catch (error) {
    showProblem(error.message);
  }
}

// The socket: hello with the token and the last chronicle step shown; a view after every
// change. A lost connection is opened again (with backoff), and resumes where it was.
function connect() {
  const here = current;
  if (!here || here.closed) return;
  const socket = new WebSocket(socketUrl(here.gameId));
  here.socket = socket;
  socket.addEventListener("open", () => {
    setConnection("live");
    here.backoff = 500;
    const hello = { type: "hello", token: here.token };
    if (here.since >= 0) hello.since = here.since;
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", async (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message.type === "view") await showView(message);
    else if (message.type === "error") showProblem(message.error);
  });
  socket.addEventListener("close", () => {
    if (here.closed || current !== here) return;
    setConnection("reconnecting…");
    setTimeout(connect, here.backoff);
    here.backoff = Math.min(here.backoff * 2, 10000);
  });
}

export function closeGame() {
  if (!current) return;
  current.closed = true;
  clearTimeout(current.stillTimer);
  if (current.socket) current.socket.close();
  current = null;
  setConnection("");
}

export async function openGame(gameId) {
  closeGame();
  wireBoard();
  resetBoard();
  document.getElementById("chronicle").replaceChildren();
  document.getElementById("result").hidden = true;
  document.getElementById("question").hidden = true;
  const kept = seatOf(gameId);
  current = {
    gameId, token: kept ? kept.token : null, seat: kept && kept.token ? kept.seat : null,
    info: null, view: null, socket: null, since: -1, summaries: {}, closed: false, pending: null, backoff: 500, stillTimer: null,
  };
  const here = current;
  try {
    here.info = await call("GET", `/api/games/${encodeURIComponent(gameId)}`);
  } catch (error) {
    showProblem(error.message);
    return;
  }
  here.summaries = await summaries(here.info.game);
  const seatName = here.seat !== null && here.info.seats[here.seat] ? here.info.seats[here.seat].name : "spectator";
  document.getElementById("where").textContent = `${here.info.name}: ${seatName}`;
  document.title = `${here.info.name} (${seatName}) - byzantium`;
  if (current !== here) return;
  await refresh();
  connect();
}
