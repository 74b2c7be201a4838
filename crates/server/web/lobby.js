// The lobby: create a game (each seat human or an AI), copy each seat's link, list games.
// It holds no rule of any game: the games, scenarios and seats come from the server.

const $ = (id) => document.getElementById(id);
const PLAYERS = ["human", "open", "random", "greedy", "mcts"];
const WORDS = { human: "a person (a link for them)", open: "open (anyone may join)" };
const tokenOf = (id) => localStorage.getItem(`battlemat-token-${id}`);
let rulesets = [];

async function api(path, options = {}) {
  const res = await fetch(path, { headers: { "content-type": "application/json" }, ...options });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error || `${res.status}`);
  return body;
}

function fillScenarios() {
  const g = rulesets.find((r) => r.id === $("game").value);
  $("scenario").replaceChildren(...g.scenarios.map((s) => new Option(`${s.name}${s.ours ? " (ours)" : ""}`, s.id)));
  fillSeats();
}

function fillSeats() {
  const g = rulesets.find((r) => r.id === $("game").value);
  const s = g.scenarios.find((x) => x.id === $("scenario").value);
  const n = s.min_seats;
  const rows = [];
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${i} `;
    const sel = document.createElement("select");
    sel.className = "seat";
    sel.id = `seat-${i}`;
    for (const p of PLAYERS) sel.add(new Option(WORDS[p] || `AI: ${p}`, p));
    if (i > 0) sel.value = "greedy";
    label.append(sel);
    rows.push(label);
  }
  $("seats").replaceChildren(...rows);
}

/// Take the first free seat of game `id`: its token is kept in this browser as an invite
/// link's is, and the page goes to the table as that seat.
async function join(id) {
  $("error").textContent = "";
  try {
    const r = await api(`/api/games/${id}/join`, { method: "POST", body: "{}" });
    localStorage.setItem(`battlemat-token-${id}`, r.token);
    sessionStorage.setItem(`battlemat-flash-${id}`, `You took seat ${r.seat}.${r.started ? " The game has started." : ""}`);
    location.href = `/games/${id}`;
  } catch (err) {
    $("error").textContent = `Could not join: ${err.message}`;
    lists();
  }
}

function gameItem(g, status) {
  const li = document.createElement("li");
  li.dataset.game = g.id;
  const mine = tokenOf(g.id);
  const a = document.createElement("a");
  a.href = `/games/${g.id}`;
  a.textContent = `${g.game} — ${g.scenario} (${g.seats.join(" vs ")}), step ${g.seq}`;
  const how = document.createElement("span");
  how.className = "sub-dark";
  how.textContent = mine ? " — your seat" : status === "finished" ? " — replay" : " — watch";
  li.append(a, how);
  if (status === "open" && !mine) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "join";
    b.textContent = `join (seat ${g.open_seats[0]})`;
    b.onclick = () => join(g.id);
    li.append(b);
  }
  return li;
}

async function lists() {
  const sections = [];
  try {
    for (const status of ["open", "running", "finished"]) {
      const { games } = await api(`/api/games?status=${status}`);
      const h = document.createElement("h3");
      h.textContent = `${status} (${games.length})`;
      const ul = document.createElement("ul");
      ul.className = `games games-${status}`;
      ul.append(...games.map((g) => gameItem(g, status)));
      sections.push(h, ul);
    }
    $("lists").replaceChildren(...sections);
  } catch (err) {
    $("error").textContent = `The lists of games: ${err.message}`;
  }
}

$("game").addEventListener("change", fillScenarios);
$("scenario").addEventListener("change", fillSeats);
$("create").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("error").textContent = "";
  const seats = [...document.querySelectorAll("select.seat")].map((s) => s.value);
  try {
    const g = await api("/api/games", {
      method: "POST",
      body: JSON.stringify({ game: $("game").value, scenario: $("scenario").value, seats, dice: $("dice").value, public: $("public").checked }),
    });
    // The first seat with a token is the creator's: kept in this browser at once, so the
    // lists show it as theirs (and offer them no join of their own game's other seat).
    const own = g.seats.find((s) => s.token);
    if (own) localStorage.setItem(`battlemat-token-${g.id}`, own.token);
    const items = g.seats.map((s) => {
      const li = document.createElement("li");
      if (s.join) {
        li.className = "open-seat";
        li.append(`Seat ${s.seat}: open — anyone may take it from the lobby or from this link `);
        const copy = document.createElement("button");
        copy.textContent = "copy link";
        copy.type = "button";
        copy.onclick = () => navigator.clipboard?.writeText(`${location.origin}/games/${g.id}`);
        li.append(copy);
      } else if (s.invite) {
        const a = document.createElement("a");
        a.href = `/games/${g.id}#token=${s.token}`;
        a.className = `invite seat-${s.seat}`;
        a.textContent = `Play seat ${s.seat}`;
        const copy = document.createElement("button");
        copy.textContent = "copy link";
        copy.type = "button";
        copy.onclick = () => navigator.clipboard?.writeText(s.invite);
        li.append(a, " ", copy);
      } else {
        li.textContent = `Seat ${s.seat}: ${s.player} (played by the server)`;
      }
      return li;
    });
    const watch = document.createElement("li");
    watch.innerHTML = `<a href="/games/${g.id}">Watch as a spectator</a>`;
    $("invites").replaceChildren(...items, watch);
    $("created").hidden = false;
    lists();
  } catch (err) {
    $("error").textContent = err.message;
  }
});

rulesets = await api("/api/rulesets");
$("game").replaceChildren(...rulesets.map((r) => new Option(r.name, r.id)));
fillScenarios();
lists();
setInterval(lists, 5000); // games opened, started and finished by others
