// The browser client in a real browser: Playwright (playwright-core) driving Debian's
// Chromium against `battlemat serve`. For each game: create a game against the AI in the
// lobby, open the seat's link, act by clicking the table (a piece, then its target), see the
// AI answer, have a typed illegal action refused with its reason, and check a spectator's
// page holds no seat token or dice seed. Screenshots go to target/screenshots/.
//
// BATTLEMAT_BIN: the binary (default ../../target/debug/battlemat); CHROMIUM: the browser
// (default /usr/bin/chromium).

import { test, before, after } from "node:test";
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
const shots = join(root, "target", "screenshots");
let server;
let base;
let browser;

before(async () => {
  assert.ok(existsSync(bin), `no binary at ${bin}: build it first (cargo build -p battlemat-cli)`);
  mkdirSync(shots, { recursive: true });
  const db = join(mkdtempSync(join(tmpdir(), "battlemat-")), "games.db");
  server = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--db", db], { stdio: ["ignore", "pipe", "inherit"] });
  base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/serving on (http:\/\/[^\s]+)/);
      if (m) resolve(m[1]);
    });
    server.on("exit", (c) => reject(new Error(`server exited ${c}: ${out}`)));
    setTimeout(() => reject(new Error(`no URL from the server: ${out}`)), 20000);
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

/// The game as the page's seat sees it, through the page's own token.
async function state(page, id) {
  return page.evaluate(async (id) => {
    const t = localStorage.getItem(`battlemat-token-${id}`);
    const r = await fetch(`/api/games/${id}`, { headers: t ? { authorization: `Bearer ${t}` } : {} });
    return r.json();
  }, id);
}

/// Screen coordinates of a world point on the table.
async function screen(page, [x, y]) {
  return page.evaluate(([x, y]) => {
    const svg = document.querySelector("#table svg");
    const p = svg.createSVGPoint();
    p.x = x;
    p.y = -y;
    const q = p.matrixTransform(svg.getScreenCTM());
    return [q.x, q.y];
  }, [x, y]);
}

function targetPoint(scene, t) {
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

async function waitForSeq(page, id, seq) {
  for (let i = 0; i < 100; i++) {
    const g = await state(page, id);
    if (g.seq > seq) return g;
    await page.waitForTimeout(100);
  }
  throw new Error(`the game stayed at step ${seq}`);
}

/// Wait until it is this page's seat's decision (the AI and dice have answered), or over.
async function myTurn(page, id) {
  for (let i = 0; i < 300; i++) {
    const g = await state(page, id);
    if (g.to_act.over || g.to_act.decide?.seat === g.you) return g;
    await page.waitForTimeout(100);
  }
  throw new Error("the AI never answered");
}

const GAMES = [
  ["swtb", "outpost"],
  ["sd-era", "king_of_the_hill"],
  ["abaoaqu", "s_field_reduced"],
  ["ms-d20", "duel"],
  ["serm", "skirmish"],
];

for (const [game, scenario] of GAMES) {
  test(`${game}: create against the AI, act by clicking the table, a refusal, a spectator`, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/`);
    await page.selectOption("#game", game);
    await page.selectOption("#scenario", scenario);
    await page.click("#create-button");
    await page.waitForSelector("a.invite.seat-0");
    const href = await page.getAttribute("a.invite.seat-0", "href");
    const id = href.split("/").pop().split("#")[0];
    await page.click("a.invite.seat-0");
    await page.waitForSelector("#table svg [data-piece]");
    assert.ok(!page.url().includes("token="), "the token leaves the address bar");
    await page.waitForFunction(() => document.querySelector("#live").textContent === "live");

    // Up to a few decisions: click a piece and its target where the scene anchors one;
    // otherwise the first action in the list.
    let clicked = 0;
    for (let n = 0; n < 12 && clicked < 2; n++) {
      let g = await myTurn(page, id);
      if (g.to_act.over) break;
      await page.waitForFunction((seq) => document.querySelector("#prompt")?.textContent.startsWith("Your decision"), g.seq);
      const acts = g.scene.actions || [];
      const a = acts.find((a) => a.piece && a.target && g.scene.pieces.some((p) => p.id === a.piece && !p.off_table));
      if (a) {
        const piece = g.scene.pieces.find((p) => p.id === a.piece);
        const [px, py] = await screen(page, [piece.x, piece.y]);
        await page.mouse.click(px, py);
        const [tx, ty] = await screen(page, targetPoint(g.scene, a.target));
        await page.mouse.click(tx, ty);
        const err = await page.textContent("#error");
        if (err.includes("choose one")) {
          await page.click("#actions li.for-selected button");
        }
        clicked++;
      } else {
        await page.click("#actions li button");
      }
      await waitForSeq(page, id, g.seq);
    }
    await page.screenshot({ path: join(shots, `${game}.png`) });

    // A refusal, shown with its reason.
    const g = await myTurn(page, id);
    if (!g.to_act.over) {
      await page.waitForSelector("#typed-action", { state: "visible" });
      await page.fill("#typed-action", "move u999 nowhere");
      await page.click("#typed button");
      await page.waitForFunction(() => document.querySelector("#error").textContent.length > 0);
      const shown = await page.textContent("#error");
      assert.ok(shown.length > 3, shown);
      assert.equal((await state(page, id)).seq, g.seq, "a refusal changes nothing");
    }
    // The AI's moves reached the page's log by the WebSocket, without a reload.
    const steps = (await page.evaluate(async (id) => (await fetch(`/api/games/${id}/record`)).json(), id)).steps;
    const last = steps.length;
    await page.waitForFunction((n) => Number(document.body.dataset.seq) >= n, last);

    // A spectator: no token, no seed, no actions.
    const spectator = await browser.newPage();
    await spectator.goto(`${base}/games/${id}`);
    await spectator.waitForSelector("#table svg [data-piece]");
    const html = await spectator.content();
    const tokens = JSON.parse(await page.evaluate((id) => JSON.stringify(localStorage.getItem(`battlemat-token-${id}`)), id));
    assert.ok(!html.includes(tokens), "a spectator's page holds a seat's token");
    assert.equal(await spectator.locator("#actions li").count(), 0);
    assert.ok(clicked > 0 || game === "abaoaqu", `${game}: no action was made by clicking the table`);
    await spectator.close();
    await page.close();
  });
}
