// The lobby: create a game of either game from the server's catalogue, choose who sits
// where, list this browser's games and the server's games (joining an open seat).
import { call, invitation, keepSeat, seats, showProblem } from "./api.js";

let catalogue = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

// One input for an option, from its default's type: a checkbox, a number or a text;
// a list of choices where the catalogue gives them.
function optionInput(option) {
  const id = `option-${option.name}`;
  const label = el("label", { for: id });
  let input;
  if (Array.isArray(option.choices) && option.choices.length) {
    input = el("select", { id, name: option.name });
    for (const c of option.choices) {
      const o = el("option", { value: String(c), text: String(c) });
      if (c === option.default) o.selected = true;
      input.append(o);
    }
  } else if (typeof option.default === "boolean") {
    input = el("input", { id, name: option.name, type: "checkbox" });
    input.checked = option.default;
  } else if (typeof option.default === "number") {
    input = el("input", { id, name: option.name, type: "number", value: String(option.default) });
  } else {
    input = el("input", { id, name: option.name, type: "text", value: option.default ?? "" });
  }
  input.dataset.kind = typeof option.default;
  label.append(`${option.name} `, input);
  if (option.help) label.append(el("span", { class: "help", text: option.help }));
  return label;
}

function entryOf(gameId) {
  return catalogue.games.find((g) => g.game === gameId);
}

function showForm() {
  const entry = entryOf(document.getElementById("create-game").value);
  const options = document.getElementById("create-options");
  options.replaceChildren(el("legend", { text: "Options" }));
  const scenarios = entry.scenarios && entry.scenarios.length ? entry.scenarios : null;
  const all = entry.options.map((o) => (o.name === "scenario" && scenarios ? { ...o, choices: scenarios } : o));
  if (scenarios && !all.some((o) => o.name === "scenario")) {
    all.unshift({ name: "scenario", default: scenarios[0], choices: scenarios, help: "" });
  }
  // The scenario in sight; every other option (the optional rules) folded away.
  const more = el("details", {}, el("summary", { text: "More options (optional rules)" }));
  for (const option of all) {
    if (option.name === "scenario") options.append(optionInput(option));
    else more.append(optionInput(option));
  }
  if (more.children.length > 1) options.append(more);
  const seatBox = document.getElementById("create-seats");
  seatBox.replaceChildren(el("legend", { text: "Who sits where" }));
  entry.seats.forEach((name, i) => {
    const select = el("select", { id: `seat-${i}`, "data-seat": String(i) });
    const choices = [["me", "me"], ["invite", "a person I invite (a link)"], ["open", "anyone who joins"]];
    for (const policy of entry.policies || []) choices.push([policy, `the built-in ${policy} player`]);
    for (const [value, text] of choices) select.append(el("option", { value, text }));
    // A second seat defaults to an invitation: two people are what a server is for.
    if (i > 0) select.value = "invite";
    seatBox.append(el("label", { for: `seat-${i}` }, `${name} `, select));
  });
}

// The options as chosen, each of its default's type.
function optionsOf() {
  const found = {};
  for (const input of document.querySelectorAll("#create-options input, #create-options select")) {
    if (input.type === "checkbox") found[input.name] = input.checked;
    else if (input.dataset.kind === "number") found[input.name] = Number(input.value);
    else found[input.name] = input.value;
  }
  return found;
}

async function create(event) {
  event.preventDefault();
  const entry = entryOf(document.getElementById("create-game").value);
  const chosen = [...document.querySelectorAll("#create-seats select")].map((s) => s.value);
  if (chosen.filter((c) => c === "me").length > 1) {
    showProblem("choose 'me' for one seat only (invite the other player through a link)");
    return;
  }
  const seatsWanted = chosen.map((c) => (
    c === "me" || c === "invite" ? { player: "person" } : { player: c }
  ));
  let made;
  try {
    made = await call("POST", "/api/games", {
      body: { game: entry.game, options: optionsOf(), seats: seatsWanted },
    });
  } catch (error) {
    showProblem(error.message);
    return;
  }
  const gameId = made.game_id;
  const list = document.getElementById("invitation-list");
  list.replaceChildren();
  let mine = null;
  chosen.forEach((c, i) => {
    const token = made.tokens ? made.tokens[String(i)] : null;
    if (!token) return;
    if (c === "me") mine = { seat: i, token };
    else {
      const link = invitation(gameId, i, token);
      const input = el("input", { type: "text", readonly: "", value: link, "data-seat": String(i) });
      input.addEventListener("focus", () => input.select());
      list.append(el("li", {}, `${entry.seats[i]}: `, input));
    }
  });
  keepSeat(gameId, {
    seat: mine ? mine.seat : null, token: mine ? mine.token : null,
    game: entry.game, name: entry.name, created: new Date().toISOString(),
  });
  if (list.children.length) {
    document.getElementById("invitations").hidden = false;
    const open = document.getElementById("invitation-open");
    open.href = `#/game/${encodeURIComponent(gameId)}`;
    open.focus();
    listGames();
  } else {
    location.hash = `#/game/${encodeURIComponent(gameId)}`;
  }
}

function gameItem(info, mine) {
  const li = el("li", { class: `status-${info.status}`, "data-game": info.game_id });
  const seatName = mine && mine.seat !== null && info.seats && info.seats[mine.seat]
    ? ` as ${info.seats[mine.seat].name}` : "";
  li.append(el("a", { href: `#/game/${encodeURIComponent(info.game_id)}`, text: `${info.name}${seatName}` }));
  const line = [info.options_text, info.status === "over" ? "over" : info.heading]
    .filter(Boolean).join("; ");
  if (line) li.append(` (${line})`);
  for (const seat of info.seats || []) {
    if (seat.player === "open" && !seat.taken && !mine) {
      const button = el("button", { type: "button", text: `Join as ${seat.name}`, "data-join": String(seat.seat) });
      button.addEventListener("click", () => join(info, seat.seat));
      li.append(" ", button);
    }
  }
  return li;
}

async function join(info, seat) {
  try {
    const got = await call("POST", `/api/games/${encodeURIComponent(info.game_id)}/join`, { body: { seat } });
    keepSeat(info.game_id, {
      seat: got.seat, token: got.token, game: info.game, name: info.name,
      created: new Date().toISOString(),
    });
    location.hash = `#/game/${encodeURIComponent(info.game_id)}`;
  } catch (error) {
    showProblem(error.message);
  }
}

async function listGames() {
  const mine = seats();
  const myList = document.getElementById("my-games");
  const allList = document.getElementById("all-games");
  let games = [];
  try {
    games = (await call("GET", "/api/games?limit=50")).games;
  } catch (error) {
    showProblem(error.message);
  }
  const byId = new Map(games.map((g) => [g.game_id, g]));
  const myItems = [];
  for (const [gameId, entry] of Object.entries(mine)) {
    let info = byId.get(gameId);
    if (!info) {
      try { info = await call("GET", `/api/games/${encodeURIComponent(gameId)}`); } catch { continue; }
    }
    myItems.push([entry.created || "", gameItem(info, entry)]);
  }
  myItems.sort((a, b) => (a[0] < b[0] ? 1 : -1));
  myList.replaceChildren(...myItems.map((x) => x[1]));
  if (!myItems.length) myList.append(el("li", { text: "none yet" }));
  allList.replaceChildren(...games.filter((g) => !(g.game_id in mine)).map((g) => gameItem(g, null)));
  if (!allList.children.length) allList.append(el("li", { text: "none" }));
}

let wired = false;
export async function openLobby() {
  document.getElementById("invitations").hidden = true;
  if (!catalogue) {
    try {
      catalogue = await call("GET", "/api/catalogue");
    } catch (error) {
      showProblem(error.message);
      return;
    }
    const select = document.getElementById("create-game");
    for (const entry of catalogue.games) select.append(el("option", { value: entry.game, text: entry.name }));
  }
  if (!wired) {
    wired = true;
    document.getElementById("create-game").addEventListener("change", showForm);
    document.getElementById("create-form").addEventListener("submit", create);
  }
  showForm();
  await listGames();
}
