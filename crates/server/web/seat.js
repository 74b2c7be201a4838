// The seat panel of the table page: take a free seat, see how long the seat the game waits
// on has been away and claim the game once the server would allow it, leave (forfeit, or
// hand the seat to an AI), and a rematch with the seats turned round. It holds no rule of
// any game: who is awaited, who is human, the presence counts and the limit are the
// server's (`GET /api/games/{id}`), and every refusal is the server's reason.

const $ = (id) => document.getElementById(id);

/// The panel for game `id`, whose seat token (if any) the page keeps under `key`.
/// `api` makes a request as the page's seat; `caughtUp(seq)` brings the page up to step `seq`.
export function seatPanel({ id, key, api, showError, caughtUp }) {
  let meta = null; // the game as last fetched (its seats, presence, status, rematch)
  let fetchedAt = 0;
  let timer = null;

  // A word for the page after it reloads as another viewer (a seat taken or left).
  const flash = sessionStorage.getItem(`battlemat-flash-${id}`);
  if (flash) {
    sessionStorage.removeItem(`battlemat-flash-${id}`);
    $("notice").textContent = flash;
  }
  const reloadWith = (words) => {
    sessionStorage.setItem(`battlemat-flash-${id}`, words);
    location.reload();
  };

  /// The seat the game waits on that is not this page's and is a person's, with the
  /// seconds it has been away (the server's count, plus the time since it was fetched).
  function away() {
    if (!meta || meta.status !== "running") return null;
    const s = meta.to_act?.decide ? meta.to_act.decide.seat : meta.rolls;
    if (s === null || s === undefined || s === meta.you || meta.seats[s] !== "human") return null;
    const seen = meta.presence?.[s];
    if (seen === null || seen === undefined) return null;
    return { seat: s, secs: seen + Math.floor((Date.now() - fetchedAt) / 1000) };
  }

  function render() {
    if (!meta) return;
    const seated = meta.you !== null;
    const free = meta.open_seats || [];
    $("join-box").hidden = seated || meta.status !== "open" || free.length === 0;
    $("join-text").textContent = free.length ? `Seat ${free[0]} is free.` : "";

    const gone = away();
    $("presence").hidden = !gone;
    if (gone) {
      const limit = meta.gone_after;
      const over = gone.secs >= limit;
      $("presence-text").textContent = `Waiting on seat ${gone.seat}: last seen ${gone.secs} s ago${over ? ` — gone (the limit is ${limit} s)` : ` (gone after ${limit} s)`}.`;
      $("presence").classList.toggle("gone", over);
      $("claim").hidden = !(seated && over);
      $("presence").dataset.seat = String(gone.seat);
    }

    $("leave-box").hidden = !seated || meta.status === "finished";
    const before = meta.status === "open";
    $("leave-to").hidden = before;
    $("leave").textContent = before ? "leave (free the seat)" : "leave";

    const done = meta.status === "finished";
    $("rematch-box").hidden = !done || (!seated && !meta.rematch);
    $("rematch").hidden = !seated;
    $("rematch-text").replaceChildren();
    if (done && meta.rematch) {
      const a = document.createElement("a");
      a.href = `/games/${meta.rematch}`;
      a.id = "rematch-link";
      a.textContent = seated ? "A rematch is ready:" : "watch the rematch";
      $("rematch-text").append(a);
    } else if (done) {
      $("rematch-text").textContent = "Play again, sides swapped:";
    }
  }

  async function poll() {
    try {
      const g = await api(`/api/games/${id}`);
      const moved = meta && (g.seq !== meta.seq || g.status !== meta.status);
      update(g);
      if (moved) caughtUp(g.seq);
    } catch {
      // The next poll tries again; the live socket says when the server is back.
    }
  }

  /// The game as just fetched: redraw, and poll at a quarter of the server's limit (1 to
  /// 15 s) so the page sees a seat come and go, a rematch made, or the game start, and the
  /// count it shows lags the server's by less than half the limit.
  function update(g) {
    const first = !meta;
    meta = g;
    fetchedAt = Date.now();
    render();
    if (first) {
      const every = Math.min(15, Math.max(1, (g.gone_after || 60) / 4)) * 1000;
      timer = setInterval(poll, every);
      setInterval(render, 1000);
    }
  }

  async function post(path, body) {
    showError(null);
    return api(`/api/games/${id}/${path}`, { method: "POST", body: JSON.stringify(body || {}) });
  }

  $("join").onclick = async () => {
    try {
      const r = await post("join");
      localStorage.setItem(key, r.token);
      reloadWith(`You took seat ${r.seat}.${r.started ? " The game has started." : ""}`);
    } catch (e) {
      showError(e);
    }
  };
  $("claim").onclick = async () => {
    try {
      const r = await post("claim");
      $("notice").textContent = `Seat ${r.resigned} was gone and resigns.`;
      await caughtUp(r.seq);
      await poll();
    } catch (e) {
      showError(e);
      await poll();
    }
  };
  $("leave").onclick = async () => {
    try {
      const before = meta.status === "open";
      const r = await post("leave", before ? {} : { to: $("leave-to").value });
      if (r.left === "forfeit") {
        $("notice").textContent = `You forfeited seat ${r.seat}.`;
        await caughtUp(r.seq);
        await poll();
        return;
      }
      localStorage.removeItem(key);
      reloadWith(r.left === "freed" ? `You left seat ${r.seat}; it is free again.` : `You handed seat ${r.seat} to the AI (${r.left}); you are watching.`);
    } catch (e) {
      showError(e);
    }
  };
  $("rematch").onclick = async () => {
    try {
      const r = await post("rematch");
      localStorage.setItem(`battlemat-token-${r.id}`, localStorage.getItem(key));
      sessionStorage.setItem(`battlemat-flash-${r.id}`, `The rematch: you are seat ${r.seat}.`);
      location.href = `/games/${r.id}`;
    } catch (e) {
      showError(e);
    }
  };

  return { update, stop: () => clearInterval(timer) };
}
