// The table in the browser. It holds no rule of any game: the picture is the server's
// SVG of this seat's scene, what may be done is the scene's actions with their anchors,
// the odds and every word come from the server. A click becomes the action whose anchors
// it hits; a free point is written into the action's template; everything else is the
// action list beside the table (and a box to type any action).

import { seatPanel } from "/assets/seat.js";

const $ = (id) => document.getElementById(id);
const id = location.pathname.split("/").filter(Boolean).pop();
const key = `battlemat-token-${id}`;
const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
if (fromLink) {
  localStorage.setItem(key, fromLink);
  history.replaceState(null, "", location.pathname); // the token leaves the address bar
}
const token = localStorage.getItem(key);
const auth = token ? { authorization: `Bearer ${token}` } : {};

let game = null;
let odds = new Map();
let selected = null;
let viewBox = null; // the zoomed view, kept across refreshes
let fullBox = null;
let svg = null;
let shownLog = 0;
let replayAt = null; // the step shown by the replay controls, or null for the live table
let sightHover = {}; // the target whose line of fire is drawn bold
let pointer = null; // where the pointer last was over the table (client coordinates)

async function api(path, options = {}) {
  const res = await fetch(path, { ...options, headers: { "content-type": "application/json", ...auth, ...(options.headers || {}) } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const e = new Error(body.error || `${res.status}`);
    e.rule = body.rule;
    e.status = res.status;
    throw e;
  }
  return body;
}

function showError(e) {
  $("error").textContent = e ? `${e.message}${e.rule ? ` (${e.rule})` : ""}` : "";
}

function actions() {
  return (game && game.scene.actions) || [];
}

function world(evt) {
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [p.x, -p.y];
}

function inRegion(r, [x, y]) {
  if (r.shape === "circle") return Math.hypot(x - r.x, y - r.y) <= r.r + 1e-3;
  const pts = r.points;
  for (let i = 0; i + 1 < pts.length; i++) {
    const [ax, ay] = pts[i], [bx, by] = pts[i + 1];
    const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    const t = l2 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
    if (Math.hypot(x - ax - t * dx, y - ay - t * dy) <= 0.15) return true;
  }
  return false;
}

function svgEl(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

const pct = (p) => `${(p * 100).toFixed(p < 0.001 && p > 0 ? 2 : 1)}%`;

/// The odds of one action as a small chart: each outcome's chance as a bar, and each
/// effect distribution (damage, knockback…) as a histogram with its mean. The numbers are
/// the server's (`odds` prints the same); nothing here knows what they mean.
function oddsChart(o, title) {
  const box = document.createElement("div");
  box.className = "odds-chart";
  if (title) {
    const h = document.createElement("p");
    h.className = "odds-title";
    h.textContent = title;
    box.append(h);
  }
  for (const [k, v] of Object.entries(o.outcomes || {})) {
    const row = document.createElement("div");
    row.className = "odds-row";
    row.dataset.outcome = k;
    const name = document.createElement("span");
    name.textContent = k;
    const bar = document.createElement("span");
    bar.className = "bar";
    const fill = document.createElement("span");
    fill.style.width = `${Math.max(0, Math.min(1, v)) * 100}%`;
    bar.append(fill);
    const n = document.createElement("span");
    n.textContent = pct(v);
    row.append(name, bar, n);
    box.append(row);
  }
  for (const [name, dist] of Object.entries(o.distributions || {})) {
    const vals = Object.entries(dist).map(([v, p]) => [Number(v), p]).sort((a, b) => a[0] - b[0]);
    if (!vals.length) continue;
    const mean = vals.reduce((m, [v, p]) => m + v * p, 0);
    const top = Math.max(...vals.map(([, p]) => p));
    const w = 280, h = 56, bw = w / vals.length;
    const chart = svgEl("svg", { viewBox: `0 0 ${w} ${h + 14}`, class: "hist", "data-distribution": name, role: "img" });
    vals.forEach(([v, p], i) => {
      const bh = top ? (p / top) * h : 0;
      const r = svgEl("rect", { x: i * bw + 0.5, y: h - bh, width: Math.max(bw - 1, 0.5), height: bh, fill: "#5c6bc0" });
      const t = svgEl("title", {});
      t.textContent = `${name} ${v}: ${pct(p)}`;
      r.append(t);
      chart.append(r);
    });
    const lo = svgEl("text", { x: 0, y: h + 12, "font-size": 10 });
    lo.textContent = String(vals[0][0]);
    const hi = svgEl("text", { x: w, y: h + 12, "font-size": 10, "text-anchor": "end" });
    hi.textContent = String(vals[vals.length - 1][0]);
    chart.append(lo, hi);
    const cap = document.createElement("p");
    cap.className = "odds-dist";
    cap.textContent = `${name}: mean ${mean.toFixed(1)} (${vals[0][0]} to ${vals[vals.length - 1][0]})`;
    box.append(cap, chart);
  }
  const details = Object.entries(o.details || {}).filter(([, v]) => typeof v !== "object");
  if (details.length) {
    const d = document.createElement("p");
    d.className = "odds-details";
    // docs/json.md: a detail named `…_chance` is a chance, shown as a percentage.
    const shown = (k, v) => typeof v !== "number" ? v
      : k.endsWith("_chance") ? `${(v * 100).toFixed(1)}%`
      : Number.isInteger(v) ? v : v.toFixed(2);
    d.textContent = details.map(([k, v]) => `${k.replaceAll("_", " ")}: ${shown(k, v)}`).join(" · ");
    box.append(d);
  }
  return box;
}

/// Show the odds of the actions `texts` (the first with odds) in the odds panel.
function showOdds(texts) {
  const a = texts.map((t) => [t, odds.get(t)]).find(([, o]) => o);
  if (!a) { $("odds").hidden = true; return; }
  const label = actions().find((x) => x.text === a[0])?.label || a[0];
  $("odds").replaceChildren(oddsChart(a[1], `Odds: ${label}`));
  $("odds").hidden = false;
}

/// A decision that nothing on the table points at (a defender's dodge or parry, a re-roll,
/// a reaction): every action is a choice without a target, so it comes as a prompt with
/// each choice's odds, not as a list beside the table.
function isPrompt() {
  const t = game.to_act;
  const acts = actions();
  return !!(t.decide && t.decide.seat === game.you && acts.length > 0 && acts.length <= 12
    && acts.every((a) => !a.target && !a.free));
}

function renderDecision() {
  const box = $("decision");
  if (replayAt !== null || !isPrompt()) { box.hidden = true; box.replaceChildren(); return; }
  const h = document.createElement("h3");
  h.textContent = game.to_act.decide.prompt;
  const items = actions().map((a) => {
    const div = document.createElement("div");
    div.className = "choice";
    const b = document.createElement("button");
    b.textContent = a.label;
    b.title = a.text;
    b.dataset.text = a.text;
    b.onclick = () => act(a.text);
    div.append(b);
    const o = odds.get(a.text);
    if (o) div.append(oddsChart(o));
    return div;
  });
  box.replaceChildren(h, ...items);
  box.hidden = false;
}

/// A line's width in world units for a table of this size (a 10-cell grid, a 6-stick or a
/// 36-inch table alike), so lines and their lengths read the same on every table.
const stroke = () => Math.max(game.scene.table.width, game.scene.table.height) / 300;

/// The measuring stick: a line from the chosen piece to the pointer (or the target under
/// it) with its length in the table's unit, as a player would lay a stick or a tape.
function measure(to) {
  svg?.querySelector("#measure")?.remove();
  if (!selected || !to || replayAt !== null) return;
  const p = game.scene.pieces.find((x) => x.id === selected);
  if (!p) return;
  const layer = svgEl("g", { id: "measure", "pointer-events": "none" });
  const w = stroke() * 1.6;
  layer.append(svgEl("line", { x1: p.x, y1: -p.y, x2: to[0], y2: -to[1], stroke: "#d81b60", "stroke-width": w, "stroke-dasharray": `${w * 4} ${w * 2}` }));
  const d = Math.hypot(to[0] - p.x, to[1] - p.y);
  const label = svgEl("text", { x: (p.x + to[0]) / 2, y: -(p.y + to[1]) / 2, "font-size": w * 8, fill: "#d81b60", stroke: "#fff", "stroke-width": w, "paint-order": "stroke", "text-anchor": "middle", "data-measure": d.toFixed(2) });
  label.textContent = `${d.toFixed(2)} ${game.scene.table.unit}`;
  layer.append(label);
  svg.append(layer);
}

/// The lines of fire: from the chosen piece to each piece it may shoot at (the actions the
/// server marks `shot`), thin and solid, unlike the dashed measuring stick; the line to the
/// target under the pointer (`hovered`) drawn bold with its length. Only geometry of what
/// the server sent: which targets may be shot is the game's, judged on the server.
function sightLines(hovered = null) {
  svg?.querySelector("#sight")?.remove();
  if (!selected || replayAt !== null) return;
  const from = game.scene.pieces.find((x) => x.id === selected);
  const ids = [...new Set(actions().filter((a) => a.piece === selected && a.shot && a.target?.kind === "piece").map((a) => a.target.id))];
  if (!from || !ids.length) return;
  const layer = svgEl("g", { id: "sight", "pointer-events": "none" });
  const w = stroke();
  for (const tid of ids) {
    const t = game.scene.pieces.find((x) => x.id === tid);
    if (!t) continue;
    const bold = tid === hovered;
    layer.append(svgEl("line", { x1: from.x, y1: -from.y, x2: t.x, y2: -t.y, stroke: "#1565c0", "stroke-opacity": bold ? 0.95 : 0.55, "stroke-width": bold ? w * 2.5 : w, "stroke-linecap": "round", class: bold ? "sight hovered" : "sight", "data-sight": tid }));
    if (!bold) continue;
    const d = Math.hypot(t.x - from.x, t.y - from.y);
    const label = svgEl("text", { x: (from.x + t.x) / 2, y: -(from.y + t.y) / 2, "font-size": w * 11, fill: "#0d47a1", stroke: "#fff", "stroke-width": w * 1.5, "paint-order": "stroke", "text-anchor": "middle", dy: -w * 4, "data-sight-length": d.toFixed(2) });
    label.textContent = `${d.toFixed(2)} ${game.scene.table.unit}`;
    layer.append(label);
  }
  svg.querySelector("#hl")?.before(layer);
  if (!layer.isConnected) svg.append(layer);
}

/// The chosen piece's actions at piece `id` (its target).
function actionsAt(id) {
  return actions().filter((a) => a.piece === selected && a.target?.kind === "piece" && a.target.id === id);
}

/// The line of fire to draw bold for the piece `id` under the pointer: remembered in
/// `sightHover`; the lines drawn again where that changes (or `always`).
function hoverSight(id, always = false) {
  const shot = id !== undefined && actionsAt(id).some((a) => a.shot);
  if (always || shot !== sightHover.shot || id !== sightHover.id) {
    sightHover = { shot, id };
    sightLines(shot ? id : null);
  }
}

/// The actions for a piece that is not on the table (a counter to deploy) or for no piece:
/// with nothing chosen, their target cells are what a click may hit.
function unplaced() {
  const on = new Set(game.scene.pieces.filter((p) => !p.off_table).map((p) => p.id));
  return actions().filter((a) => !a.piece || !on.has(a.piece));
}

function highlight() {
  svg.querySelectorAll(".selected, .target-hl, .target-hl-piece").forEach((e) => e.classList.remove("selected", "target-hl", "target-hl-piece"));
  svg.querySelector("#hl")?.remove();
  const layer = svgEl("g", { id: "hl", "pointer-events": "none" });
  svg.append(layer);
  document.querySelectorAll("#actions li").forEach((li) => li.classList.toggle("for-selected", selected !== null && li.dataset.piece === selected));
  // Drawn again with the line to the target still under the pointer bold: a redraw (a new
  // state, a new choice) while the pointer rests on a target keeps its line and length.
  const under = selected && pointer ? document.elementFromPoint(pointer.x, pointer.y)?.closest?.("g[data-piece]")?.dataset.piece : undefined;
  hoverSight(under, true);
  if (!selected) {
    svg.querySelector("#measure")?.remove();
    for (const a of unplaced()) if (a.target?.kind === "cell") svg.querySelector(`polygon[data-cell="${a.target.name}"]`)?.classList.add("target-hl");
    return;
  }
  svg.querySelector(`g[data-piece="${selected}"]`)?.classList.add("selected");
  const r = (game.scene.table.cell_size || 1) * 0.12;
  for (const a of actions().filter((a) => a.piece === selected)) {
    const t = a.target;
    if (t?.kind === "piece") svg.querySelector(`g[data-piece="${t.id}"]`)?.classList.add("target-hl-piece");
    if (t?.kind === "cell") svg.querySelector(`polygon[data-cell="${t.name}"]`)?.classList.add("target-hl");
    if (t?.kind === "point") layer.append(svgEl("circle", { cx: t.x, cy: -t.y, r, fill: "#ff9800", "fill-opacity": 0.6, "data-point": "" }));
    if (a.free?.region.shape === "circle") {
      const g = a.free.region;
      layer.append(svgEl("circle", { cx: g.x, cy: -g.y, r: g.r, fill: "#ffd54a", "fill-opacity": 0.12, stroke: "#e0a800", "stroke-width": r / 3, "stroke-dasharray": `${r} ${r / 2}`, "data-reach": selected }));
    }
  }
}

/// Whether the click being handled posted an action, and how many clicks were handled.
let posted = false;
let clicks = 0;

async function act(text) {
  posted = true; // before the first await: the click that called this knows at once
  showError(null);
  try {
    await api(`/api/games/${id}/actions`, { method: "POST", body: JSON.stringify({ action: text, seq: game.seq, id: crypto.randomUUID?.() || `${Date.now()}-${Math.random()}` }) });
    selected = null;
    await refresh();
  } catch (e) {
    showError(e);
    if (e.status === 409) await refresh();
  }
}

function choose(candidates, what) {
  if (candidates.length === 1) return act(candidates[0].text);
  if (candidates.length > 1) {
    $("error").textContent = `${candidates.length} actions ${what}: choose one in the list.`;
    showOdds(candidates.map((c) => c.text));
    document.querySelectorAll("#actions li").forEach((li) => li.classList.toggle("for-selected", candidates.some((c) => c.text === li.dataset.text)));
    return;
  }
}

function onClick(evt) {
  const p = world(evt);
  const pieceEl = evt.target.closest("g[data-piece]");
  const cellEl = evt.target.closest("polygon[data-cell]");
  const mine = actions().filter((a) => a.piece === selected);
  const pid = pieceEl?.dataset.piece;
  if (pieceEl && selected && pid !== selected) {
    const hits = mine.filter((a) => a.target?.kind === "piece" && a.target.id === pid);
    if (hits.length) return choose(hits, `at ${pid}`);
  }
  // A cell clicked, or a piece standing in one (a counter on a hex the chosen piece may go to).
  const cell = cellEl?.dataset.cell ?? (pid !== selected ? pieceEl?.dataset.cell : undefined);
  if (selected && cell) {
    const hits = mine.filter((a) => a.target?.kind === "cell" && a.target.name === cell);
    if (hits.length) return choose(hits, `to ${cell}`);
  }
  if (!selected && cell) {
    const hits = unplaced().filter((a) => a.target?.kind === "cell" && a.target.name === cell);
    if (hits.length) return choose(hits, `in ${cell}`);
  }
  if (pieceEl && actions().some((a) => a.piece === pid)) {
    selected = selected === pid ? null : pid;
    return highlight();
  }
  if (selected) {
    const size = (game.scene.table.cell_size || 0.25) * 0.6;
    const near = mine.filter((a) => a.target?.kind === "point" && Math.hypot(a.target.x - p[0], a.target.y - p[1]) <= size * 0.3);
    if (near.length === 1) return act(near[0].text);
    const free = mine.find((a) => a.free && inRegion(a.free.region, p));
    if (free) {
      const text = free.free.template.replace("{x}", p[0].toFixed(3).replace(/\.?0+$/, "")).replace("{y}", p[1].toFixed(3).replace(/\.?0+$/, ""));
      return act(text);
    }
    if (near.length > 1) return choose(near, "there");
  }
}

function zoom(f, at) {
  const [x, y, w, h] = viewBox;
  const [cx, cy] = at || [x + w / 2, y + h / 2];
  viewBox = [cx - (cx - x) * f, cy - (cy - y) * f, w * f, h * f];
  svg.setAttribute("viewBox", viewBox.join(" "));
}

function wire() {
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  fullBox = svg.getAttribute("viewBox").split(" ").map(Number);
  if (!viewBox) viewBox = fullBox.slice();
  svg.setAttribute("viewBox", viewBox.join(" "));
  let drag = null;
  svg.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY, box: viewBox.slice(), moved: false }; });
  svg.addEventListener("pointermove", (e) => {
    pointer = { x: e.clientX, y: e.clientY };
    const [x, y] = world(e);
    $("coords").textContent = `${x.toFixed(2)}, ${y.toFixed(2)} ${game.scene.table.unit}`;
    if (selected) {
      const g = e.target.closest?.("g[data-piece]");
      const at = g && actionsAt(g.dataset.piece);
      const shot = at?.some((a) => a.shot);
      hoverSight(g?.dataset.piece);
      if (at?.length) {
        const t = game.scene.pieces.find((p) => p.id === g.dataset.piece);
        // A shot's bold line of fire carries its length; anything else gets the stick.
        measure(shot ? null : [t.x, t.y]);
        showOdds(at.map((a) => a.text));
      } else {
        measure([x, y]);
      }
    }
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
    if (drag.moved) {
      const s = drag.box[2] / svg.clientWidth;
      viewBox = [drag.box[0] - dx * s, drag.box[1] - dy * s, drag.box[2], drag.box[3]];
      svg.setAttribute("viewBox", viewBox.join(" "));
    }
  });
  svg.addEventListener("pointerleave", () => { pointer = null; });
  svg.addEventListener("pointerup", (e) => {
    const moved = drag?.moved;
    drag = null;
    if (moved) return;
    posted = false;
    onClick(e);
    // What the click did, for whoever drives the page (the browser tests): the count of
    // clicks handled and whether this one posted an action.
    document.body.dataset.click = `${++clicks} ${posted ? "posted" : "none"}`;
  });
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const pt = svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, [p.x, p.y]);
  }, { passive: false });
  svg.addEventListener("mouseover", (e) => {
    const g = e.target.closest("g[data-piece]");
    const card = $("card");
    if (!g) { card.hidden = true; return; }
    card.textContent = g.querySelector("title")?.textContent || g.dataset.piece;
    card.hidden = false;
  });
  svg.addEventListener("mousemove", (e) => { $("card").style.left = `${e.clientX + 14}px`; $("card").style.top = `${e.clientY + 14}px`; });
  svg.addEventListener("mouseleave", () => { $("card").hidden = true; });
}

function renderAside() {
  const t = game.to_act;
  $("title").textContent = `${game.scene.title} (${game.game})`;
  $("you").textContent = game.you === null ? "watching" : `you are seat ${game.you}`;
  $("prompt").textContent = t.decide ? (t.decide.seat === game.you ? `Your decision: ${t.decide.prompt}` : `Waiting: ${t.decide.prompt}`) : t.chance ? `Dice: ${t.chance.what}` : `Game over: ${t.over.reason}`;
  const list = actions().map((a) => {
    const li = document.createElement("li");
    li.dataset.text = a.text;
    if (a.piece) li.dataset.piece = a.piece;
    const b = document.createElement("button");
    const o = odds.get(a.text);
    const oddsText = o ? "  — " + Object.entries(o.outcomes || {}).map(([k, v]) => `${k} ${(v * 100).toFixed(1)}%`).join(", ") : "";
    b.textContent = `${a.label}${oddsText}`;
    b.title = a.text;
    b.onclick = () => act(a.text);
    b.onmouseenter = b.onfocus = () => showOdds([a.text]);
    li.append(b);
    return li;
  });
  $("actions").replaceChildren(...list);
  $("typed").hidden = !(t.decide && t.decide.seat === game.you);
  $("hint-button").hidden = $("typed").hidden;
  if ($("typed").hidden || Number($("hints").dataset.seq) !== game.seq) { $("hints").hidden = true; $("hints").dataset.seq = String(game.seq); }
  const dice = [];
  // Table dice: the server names the seat that rolls (`rolls`); only that seat is asked.
  const mine = game.rolls === undefined || game.rolls === null ? game.you !== null : game.rolls === game.you;
  if (t.chance && game.dice === "table" && game.you !== null && !mine) {
    const p = document.createElement("p");
    p.textContent = `Waiting for seat ${game.rolls} to roll: ${t.chance.what}`;
    dice.push(p);
  }
  if (t.chance && game.dice === "table" && game.you !== null && mine) {
    const p = document.createElement("p");
    p.textContent = `Roll at the table and give the face: ${t.chance.what}`;
    dice.push(p);
    for (const o of t.chance.outcomes) {
      const b = document.createElement("button");
      b.textContent = o.value;
      b.className = "face";
      b.onclick = () => act(String(o.value));
      dice.push(b);
    }
  }
  $("dice").replaceChildren(...dice);
  $("record").href = `/api/games/${id}/record`;
  $("record").download = `battlemat-${id}.json`;
  renderDecision();
  if (!(t.decide && t.decide.seat === game.you)) $("odds").hidden = true;
  if (game.dice_commitment && !localStorage.getItem(`battlemat-commitment-${id}`)) localStorage.setItem(`battlemat-commitment-${id}`, game.dice_commitment);
  $("verify").hidden = !(t.over && game.dice === "seeded");
  if (t.over && $("replay").hidden) {
    $("replay").hidden = false;
    $("rp-at").max = String(game.seq);
    $("rp-at").value = String(game.seq);
    $("rp-label").textContent = `step ${game.seq} of ${game.seq} (the end)`;
  }
}

// The dice, checked in the page once the game is over: the seed the server revealed must
// hash to the commitment this page saw when it first opened the game, and every face must
// follow from that seed and the seats' seeds — HMAC-SHA256(seed, "seeds:index:counter"),
// the first 8 bytes as a number, redrawn above the largest multiple of the weights' total,
// the same draw as the server's (crates/server/src/dice.rs). The weights are the game's
// (`battlemat verify` of the exported record also replays the rules that gave them).
async function faceOf(key, seatSeeds, index, outcomes) {
  const total = outcomes.reduce((t, o) => t + BigInt(o.weight), 0n);
  if (total === 0n) return outcomes[0]?.value;
  const zone = (((1n << 64n) - 1n) / total) * total;
  for (let counter = 0; ; counter++) {
    const msg = new TextEncoder().encode(`${seatSeeds.join(",")}:${index}:${counter}`);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, msg));
    let v = 0n;
    for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(mac[i]);
    if (v < zone) {
      let left = v % total;
      for (const o of outcomes) {
        const w = BigInt(o.weight);
        if (left < w) return o.value;
        left -= w;
      }
      return outcomes[outcomes.length - 1].value;
    }
  }
}

const hexOf = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

async function verifyDice() {
  const out = $("dice-check");
  if (!crypto.subtle) { out.textContent = "this page is not on https or localhost, so it cannot hash: use `battlemat verify` on the exported record"; return; }
  out.textContent = "checking…";
  try {
    const d = await api(`/api/games/${id}/dice`);
    const seed = new TextEncoder().encode(d.server_seed);
    const problems = [];
    const hash = hexOf(await crypto.subtle.digest("SHA-256", seed));
    const promised = localStorage.getItem(`battlemat-commitment-${id}`) || d.dice_commitment;
    if (hash !== promised) problems.push(`the revealed seed hashes to ${hash.slice(0, 12)}…, not the commitment ${promised.slice(0, 12)}… published at the start`);
    const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    for (const p of d.points) {
      const f = await faceOf(key, d.seat_seeds, p.index, p.outcomes);
      if (f !== p.face) problems.push(`step ${p.seq} (${p.what}): the seed gives ${f}, the game shows ${p.face}`);
    }
    out.textContent = problems.length
      ? `${problems.length} problem${problems.length === 1 ? "" : "s"}: ${problems.slice(0, 3).join("; ")}`
      : `all ${d.points.length} dice check out: each follows from the seed committed to at the start`;
    out.className = problems.length ? "error" : "ok";
  } catch (e) {
    out.textContent = `${e.message}`;
  }
}
$("verify-dice").onclick = verifyDice;

// A hint: the AI's best candidates for this seat's decision, with its value of each.
$("hint-button").onclick = async () => {
  try {
    const h = await api(`/api/games/${id}/hint?top=3`);
    const items = h.candidates.map((c) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.textContent = `${c.label || c.text} (value ${c.value.toFixed(3)})`;
      b.dataset.text = c.text;
      b.onclick = () => act(c.text);
      li.append(b);
      return li;
    });
    $("hints").replaceChildren(...items);
    $("hints").hidden = items.length === 0;
  } catch (e) {
    showError(e);
  }
};

// Step through the game: the server replays it to any step and sends that table.
async function replayTo(at) {
  const max = Number($("rp-at").max);
  at = Math.max(0, Math.min(max, at));
  try {
    const r = await api(`/api/games/${id}/replay?at=${at}`);
    replayAt = at === max ? null : at;
    $("rp-at").value = String(at);
    $("rp-label").textContent = `step ${at} of ${max}${at === max ? " (the end)" : at === 0 ? " (the setup)" : ""}`;
    $("rp-events").replaceChildren(...r.events.map((e) => { const li = document.createElement("li"); li.textContent = e.text; return li; }));
    $("table").innerHTML = r.svg;
    svg = $("table").querySelector("svg");
    document.body.dataset.replayAt = String(at);
    wire();
    if (replayAt === null) highlight();
  } catch (e) {
    showError(e);
  }
}
$("rp-first").onclick = () => replayTo(0);
$("rp-prev").onclick = () => replayTo(Number($("rp-at").value) - 1);
$("rp-next").onclick = () => replayTo(Number($("rp-at").value) + 1);
$("rp-last").onclick = () => replayTo(Number($("rp-at").max));
$("rp-at").oninput = () => replayTo(Number($("rp-at").value));

async function refresh() {
  game = await api(`/api/games/${id}`);
  odds = new Map();
  if (game.you !== null && game.to_act.decide?.seat === game.you) {
    const legal = await api(`/api/games/${id}/legal`);
    for (const a of legal.actions) if (a.odds) odds.set(a.text, a.odds);
  }
  if (replayAt === null) {
    const res = await fetch(`/api/games/${id}/svg`, { headers: auth });
    $("table").innerHTML = await res.text();
    svg = $("table").querySelector("svg");
    wire();
  }
  renderAside();
  seat.update(game);
  if (replayAt === null) highlight();
  document.body.dataset.table = String(game.seq); // the step whose table and actions are shown
}

async function log(after) {
  const { steps } = await api(`/api/games/${id}/events?after=${after}`);
  for (const s of steps) {
    if (s.step?.roll) {
      const li = document.createElement("li");
      li.className = "roll";
      li.value = s.seq;
      const face = document.createElement("span");
      face.className = "die";
      face.textContent = String(s.step.roll.value);
      li.append("rolled ", face);
      $("log").append(li);
    }
    for (const e of s.events) {
      const li = document.createElement("li");
      li.textContent = e.text;
      li.value = s.seq;
      $("log").append(li);
    }
  }
  shownLog = Math.max(shownLog, ...steps.map((s) => s.seq), after);
  document.body.dataset.seq = String(shownLog); // the last step this page has shown
  $("log").scrollTop = $("log").scrollHeight;
}

// Live: a WebSocket that sends every stored step; a dropped one reconnects and asks for
// what it missed (after the last step shown); where WebSockets fail, long polling.
let refreshing = null;
let announced = 0; // the newest step the server has told this page of
async function caughtUp(seq = Infinity) {
  announced = Math.max(announced, seq);
  if (refreshing) return refreshing;
  refreshing = (async () => {
    do {
      await log(shownLog);
      await refresh();
    } while (announced !== Infinity && announced > shownLog);
  })().finally(() => { refreshing = null; });
  return refreshing;
}

function follow(failures = 0) {
  if (failures > 3) return poll();
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = new URLSearchParams({ after: String(shownLog) });
  if (token) q.set("token", token);
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${id}/ws?${q}`);
  let opened = false;
  ws.onopen = () => { opened = true; $("live").textContent = "live"; };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "step" && msg.seq > shownLog) caughtUp(msg.seq);
  };
  ws.onclose = () => {
    $("live").textContent = "reconnecting…";
    setTimeout(() => follow(opened ? 0 : failures + 1), 1000);
  };
}

async function poll() {
  $("live").textContent = "live (polling)";
  for (;;) {
    try {
      const { steps } = await api(`/api/games/${id}/events?after=${shownLog}&wait=25000`);
      if (steps.length) await caughtUp();
    } catch {
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

const seat = seatPanel({ id, key, api, showError, caughtUp });

$("zoom-in").onclick = () => zoom(1 / 1.3);
$("zoom-out").onclick = () => zoom(1.3);
$("zoom-fit").onclick = () => { viewBox = fullBox.slice(); svg.setAttribute("viewBox", viewBox.join(" ")); };
$("typed").addEventListener("submit", (e) => { e.preventDefault(); act($("typed-action").value); });
document.addEventListener("keydown", (e) => { if (e.key === "Escape") { selected = null; measure(null); highlight(); } });

try {
  await refresh();
  await log(0);
  follow();
} catch (e) {
  showError(e);
}
