// What every browser test file shares: a `battlemat serve` on a fresh SQLite file, Debian's
// Chromium driven by playwright-core, and helpers that read the game as the page's seat.
//
// BATTLEMAT_BIN: the binary (default ../../target/debug/battlemat); CHROMIUM: the browser
// (default /usr/bin/chromium). Screenshots go to target/screenshots/.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const bin = process.env.BATTLEMAT_BIN || join(root, "target", "debug", "battlemat");
export const shots = join(root, "target", "screenshots");

/// Start a server and a browser; `stop()` ends both. `goneAfter`: the server's
/// `--gone-after` seconds (how long a seat may be away before another may claim).
export async function start({ goneAfter } = {}) {
  assert.ok(existsSync(bin), `no binary at ${bin}: build it first (cargo build -p battlemat-cli)`);
  mkdirSync(shots, { recursive: true });
  const db = join(mkdtempSync(join(tmpdir(), "battlemat-")), "games.db");
  // The tests act faster than a person (and several at once from one address): no rate
  // limits here; crates/server/tests/limits.rs tests them.
  const args = ["serve", "--addr", "127.0.0.1:0", "--db", db, "--token-rate", "0/0", "--ip-rate", "0/0"];
  if (goneAfter !== undefined) args.push("--gone-after", String(goneAfter));
  const server = spawn(bin, args, { stdio: ["ignore", "pipe", "inherit"] });
  const base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/serving on (http:\/\/[^\s]+)/);
      if (m) resolve(m[1]);
    });
    server.on("exit", (c) => reject(new Error(`server exited ${c}: ${out}`)));
    setTimeout(() => reject(new Error(`no URL from the server: ${out}`)), 20000);
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  return {
    base,
    browser,
    async stop() {
      await browser.close();
      server.kill();
    },
  };
}

/// Create a game in the lobby (seat 0 a person, the others as `opponents` say), open seat
/// 0's link and wait for the live table. Answers the page and the game's id.
/// `lobbyShot`: a path for a screenshot of the lobby once the game is made.
export async function createAndOpen(browser, base, game, scenario, { opponent = "greedy", dice = "seeded", viewport = { width: 1280, height: 800 }, lobbyShot } = {}) {
  const page = await browser.newPage({ viewport });
  page.on("pageerror", (e) => console.error(`page error (${game}): ${e.message}`));
  await page.goto(`${base}/`);
  await page.selectOption("#game", game);
  await page.selectOption("#scenario", scenario);
  await page.selectOption("#dice", dice);
  for (const sel of await page.locator("select.seat").all()) {
    if ((await sel.getAttribute("id")) !== "seat-0") await sel.selectOption(opponent);
  }
  await page.click("#create-button");
  await page.waitForSelector("a.invite.seat-0");
  const href = await page.getAttribute("a.invite.seat-0", "href");
  const id = href.split("/").pop().split("#")[0];
  // The other seats' links (a person in each), before this page leaves the lobby.
  const invites = await page.$$eval("a.invite", (as) => as.map((a) => a.getAttribute("href")));
  if (lobbyShot) await page.screenshot({ path: lobbyShot });
  await page.click("a.invite.seat-0");
  await page.waitForSelector("#table svg [data-piece]");
  assert.ok(!page.url().includes("token="), "the token leaves the address bar");
  await page.waitForFunction(() => document.querySelector("#live").textContent === "live");
  return { page, id, invites };
}

/// A path of the API as the page's seat (its own token).
export async function asSeat(page, path) {
  return page.evaluate(async (path) => {
    const id = location.pathname.split("/").filter(Boolean).pop();
    const t = localStorage.getItem(`battlemat-token-${id}`);
    const r = await fetch(path, { headers: t ? { authorization: `Bearer ${t}` } : {} });
    return r.json();
  }, path);
}

/// The game as the page's seat sees it.
export const state = (page, id) => asSeat(page, `/api/games/${id}`);

/// Screen coordinates of a world point on the table.
export async function screen(page, [x, y]) {
  return page.evaluate(([x, y]) => {
    const svg = document.querySelector("#table svg");
    const p = svg.createSVGPoint();
    p.x = x;
    p.y = -y;
    const q = p.matrixTransform(svg.getScreenCTM());
    return [q.x, q.y];
  }, [x, y]);
}

export function targetPoint(scene, t) {
  if (t.kind === "piece") {
    const p = scene.pieces.find((p) => p.id === t.id);
    return [p.x, p.y];
  }
  if (t.kind === "cell") {
    const c = scene.table.cells.find((c) => c.name === t.name);
    return [c.x, c.y];
  }
  return [t.x, t.y];
}

export async function waitForSeq(page, id, seq) {
  for (let i = 0; i < 150; i++) {
    const g = await state(page, id);
    if (g.seq > seq) return g;
    await page.waitForTimeout(100);
  }
  throw new Error(`the game stayed at step ${seq}`);
}

/// Wait until it is this page's seat's decision (the AI and dice have answered), or over,
/// and the page shows it.
export async function myTurn(page, id) {
  for (let i = 0; i < 600; i++) {
    const g = await state(page, id);
    if (g.to_act.over || g.to_act.decide?.seat === g.you) {
      // Nothing moves while it is this seat's decision (or after the end): wait until the
      // page shows exactly this step.
      await page.waitForFunction((seq) => Number(document.body.dataset.table) === seq && Number(document.body.dataset.seq) >= seq, g.seq);
      return g;
    }
    await page.waitForTimeout(100);
  }
  throw new Error("the AI never answered");
}

/// Click the table at screen point (x, y) and say whether the page made an action of the
/// click (posted one, and the server took it). The page records each click it handles
/// (`body[data-click]`: a count and whether that click posted), set in the click's own
/// handler, so a click that posts nothing is known as soon as it is handled, and one that
/// posts is waited for however slow the machine (no guess at how long a post takes).
export async function clickActs(page, x, y) {
  const before = await page.evaluate(() => Number((document.body.dataset.click || "0").split(" ")[0]));
  const isAction = (r) => r.request().method() === "POST" && r.url().endsWith("/actions");
  const res = page.waitForResponse(isAction, { timeout: 30000 }).catch(() => null);
  await page.mouse.click(x, y);
  const handle = await page.waitForFunction((n) => {
    const c = (document.body.dataset.click || "0").split(" ");
    return Number(c[0]) > n && c[1];
  }, before);
  if ((await handle.jsonValue()) !== "posted") return false;
  const r = await res;
  return !!r && r.ok();
}
