// The board: the static layer (fetched once per address) under this seat's overlay, both
// SVG from the server; zoom and pan by one CSS transform; and choosing on the board: the
// elements an offered action names (the view's per-action "targets", CSS selectors the
// server computes) are outlined, and a click on one picks that action.

const boards = new Map(); // board URL -> SVG text
const zoom = { scale: 1, x: 0, y: 0 };
let onPick = null;
let targets = []; // [{selectors, action}] of the question on show

function place() {
  const board = document.getElementById("board");
  board.style.transform = `translate(${zoom.x}px,${zoom.y}px) scale(${zoom.scale})`;
  board.dataset.scale = zoom.scale.toFixed(3);
}

function zoomBy(factor, cx, cy) {
  const view = document.getElementById("view");
  const scale = Math.max(0.3, Math.min(8, zoom.scale * factor));
  if (cx === undefined) { cx = view.clientWidth / 2; cy = view.clientHeight / 2; }
  zoom.x = cx - ((cx - zoom.x) * scale) / zoom.scale;
  zoom.y = cy - ((cy - zoom.y) * scale) / zoom.scale;
  zoom.scale = scale;
  place();
}

function pan(dx, dy) { zoom.x += dx; zoom.y += dy; place(); }

// The whole picture in the pane.
export function fit() {
  const view = document.getElementById("view");
  const svg = document.querySelector("#overlay-layer svg") || document.querySelector("#board-layer svg");
  zoom.x = 0; zoom.y = 0; zoom.scale = 1;
  if (svg) {
    const w = svg.width.baseVal.value || svg.getBoundingClientRect().width;
    const h = svg.height.baseVal.value || svg.getBoundingClientRect().height;
    if (w && h) zoom.scale = Math.min(view.clientWidth / w, view.clientHeight / h);
  }
  place();
}

async function boardText(url) {
  if (!boards.has(url)) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the board picture could not be loaded (${response.status})`);
    boards.set(url, await response.text());
  }
  return boards.get(url);
}

// Shows a picture {board: URL|null, overlay: SVG text}; the first one fits the pane.
let shownBoard = undefined;
let fitted = false;
export async function showPicture(picture) {
  const boardLayer = document.getElementById("board-layer");
  const overlayLayer = document.getElementById("overlay-layer");
  if (picture.board !== shownBoard) {
    shownBoard = picture.board;
    boardLayer.innerHTML = picture.board ? await boardText(picture.board) : "";
  }
  overlayLayer.innerHTML = picture.overlay || "";
  if (!fitted) { fitted = true; fit(); }
  markTargets();
}

export function resetBoard() {
  shownBoard = undefined;
  fitted = false;
  targets = [];
  document.getElementById("board-layer").innerHTML = "";
  document.getElementById("overlay-layer").innerHTML = "";
}

// The elements of the picture each action names.
function elementsOf(selectors) {
  const found = [];
  for (const selector of selectors) {
    try {
      found.push(...document.querySelectorAll(`#board ${selector}`));
    } catch { /* a selector this browser does not read: the menu still offers it */ }
  }
  return found;
}

function markTargets() {
  for (const node of document.querySelectorAll("#board .target")) node.classList.remove("target", "pointed");
  for (const { selectors } of targets) for (const node of elementsOf(selectors)) node.classList.add("target");
}

// The actions of the question that name something on the board, and what to do with
// the actions a click on the board picks (one or several naming the same element).
export function setTargets(list, pick) {
  targets = list;
  onPick = pick;
  markTargets();
}

// The offered actions whose elements lie under the point: those naming the topmost
// element at the point that some action names (a counter before its hex).
function actionsAt(clientX, clientY) {
  if (!targets.length) return [];
  for (const node of document.elementsFromPoint(clientX, clientY)) {
    const found = targets.filter((t) => elementsOf(t.selectors).some((e) => e === node || e.contains(node)));
    if (found.length) return found.map((t) => t.action);
  }
  return [];
}

let wired = false;
export function wireBoard() {
  if (wired) return;
  wired = true;
  const view = document.getElementById("view");
  view.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const box = view.getBoundingClientRect();
    zoomBy(ev.deltaY < 0 ? 1.2 : 1 / 1.2, ev.clientX - box.left, ev.clientY - box.top);
  }, { passive: false });
  let drag = null;
  view.addEventListener("mousedown", (ev) => { drag = { x: ev.clientX, y: ev.clientY, moved: false }; });
  window.addEventListener("mousemove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
    if (drag.moved) { pan(dx, dy); drag.x = ev.clientX; drag.y = ev.clientY; }
  });
  window.addEventListener("mouseup", (ev) => {
    const was = drag;
    drag = null;
    if (!was || was.moved || !ev.target.closest || !ev.target.closest("#view")) return;
    const actions = actionsAt(ev.clientX, ev.clientY);
    if (actions.length && onPick) onPick(actions);
  });
  view.addEventListener("mousemove", (ev) => {
    if (drag) return;
    const actions = actionsAt(ev.clientX, ev.clientY);
    view.style.cursor = actions.length ? "pointer" : "grab";
    const indexes = new Set(actions.map((a) => a.index));
    for (const b of document.querySelectorAll("#choices button")) {
      b.classList.toggle("pointed", indexes.has(Number(b.dataset.index)));
    }
  });
  document.getElementById("zoom-in").addEventListener("click", () => zoomBy(1.25));
  document.getElementById("zoom-out").addEventListener("click", () => zoomBy(1 / 1.25));
  document.getElementById("zoom-fit").addEventListener("click", fit);
  document.addEventListener("keydown", (ev) => {
    if (document.getElementById("game").hidden) return;
    if (ev.target.matches && ev.target.matches("input, select, textarea")) return;
    const keys = { "+": () => zoomBy(1.25), "=": () => zoomBy(1.25), "-": () => zoomBy(1 / 1.25), 0: fit,
      w: () => pan(0, 60), s: () => pan(0, -60), a: () => pan(60, 0), d: () => pan(-60, 0) };
    if (keys[ev.key]) keys[ev.key]();
  });
}

// Hovering a choice in the menu points out what it names on the board.
export function pointAt(action) {
  for (const node of document.querySelectorAll("#board .pointed")) node.classList.remove("pointed");
  if (!action) return;
  const target = targets.find((t) => t.action === action);
  if (target) for (const node of elementsOf(target.selectors)) node.classList.add("pointed");
}
