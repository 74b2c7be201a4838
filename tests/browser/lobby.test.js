// The lobby's seat buttons with two players, each in a browser context of their own (their
// own storage, so their own token): the creator makes a game in the lobby; a friend takes
// the free seat from the lobby's list or opens a seat's link. Then: each one's moves appear
// in the other's tab; leaving hands the seat to an AI, which plays on; leaving by forfeit
// ends the game; a seat gone longer than the server's `--gone-after` is claimed against
// (the button only once the server would accept; a claim the server refuses shows its
// reason); and a rematch puts both players in the new game with their seats turned round.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { start, createAndOpen, asSeat, state, waitForSeq, shots } from "./harness.js";

const GONE = 6; // the server's --gone-after, in seconds
let env;
before(async () => { env = await start({ goneAfter: GONE }); });
after(async () => { await env?.stop(); });

/// A friend: a browser context of their own (its own storage) and a page in it.
async function friend() {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  return { context, page: await context.newPage() };
}

/// Wait for the game to wait on a seat's decision (the server rolls the dice), then have the
/// page of that seat make its first listed action (or its prompt's first choice). Answers
/// the seat that acted and the step it made.
async function actOnce(pages, id) {
  let g;
  for (let i = 0; i < 300; i++) {
    g = await state(pages[0], id);
    if (g.to_act.over || g.to_act.decide) break;
    await pages[0].waitForTimeout(100);
  }
  assert.ok(g.to_act.decide, `the game waits on no decision: ${JSON.stringify(g.to_act)}`);
  const seat = g.to_act.decide.seat;
  const page = pages[seat];
  await page.waitForFunction((seq) => Number(document.body.dataset.table) === seq, g.seq);
  await page.click(await page.isVisible("#decision") ? "#decision .choice button" : "#actions li button");
  await waitForSeq(page, id, g.seq);
  return { seat, seq: g.seq + 1 };
}

/// Act until the game waits on seat `seat`'s decision.
async function untilDecides(pages, id, seat) {
  for (let n = 0; n < 60; n++) {
    const g = await state(pages[0], id);
    if (g.to_act.decide?.seat === seat) return g;
    if (g.to_act.decide) await actOnce(pages, id);
    else await pages[0].waitForTimeout(100);
  }
  throw new Error(`seat ${seat} never had to decide`);
}

test("join from the lobby: moves appear in the other tab; leave handing the seat to an AI, which plays on", async () => {
  const { page, id } = await createAndOpen(env.browser, env.base, "swtb", "outpost", { opponent: "open", lobbyShot: join(shots, "lobby-created.png") });
  // Before anyone joins: the game is open, the creator may only free the seat.
  await page.waitForSelector("#leave-box:not([hidden])");
  assert.equal(await page.textContent("#leave"), "leave (free the seat)");

  const late = await friend(); // someone who opens the lobby now and joins too late
  await late.page.goto(`${env.base}/`);
  const stale = await late.page.waitForSelector(`.games-open li[data-game="${id}"] button.join`);

  const f = await friend();
  await f.page.goto(`${env.base}/`);
  await f.page.waitForSelector(`.games-open li[data-game="${id}"] button.join`);
  await f.page.screenshot({ path: join(shots, "lobby.png") });
  await f.page.click(`.games-open li[data-game="${id}"] button.join`);
  await f.page.waitForURL(`**/games/${id}`);
  await f.page.waitForSelector("#table svg [data-piece]");
  assert.equal(await f.page.textContent("#you"), "you are seat 1");
  assert.match(await f.page.textContent("#notice"), /You took seat 1/);
  assert.equal((await state(f.page, id)).status, "running", "the last free seat taken starts the game");

  // The late joiner's button is refused with the server's reason, shown in the lobby.
  await stale.evaluate((b) => b.click());
  await late.page.waitForFunction(() => document.querySelector("#error").textContent.length > 0);
  assert.match(await late.page.textContent("#error"), /^Could not join: no seat is free/);
  await late.context.close();

  // Each one's moves reach the other's tab by itself (the WebSocket), without a reload.
  const pages = [page, f.page];
  const acted = new Set();
  for (let n = 0; n < 40 && acted.size < 2; n++) {
    const { seat, seq } = await actOnce(pages, id);
    acted.add(seat);
    await pages[1 - seat].waitForFunction((s) => Number(document.body.dataset.seq) >= s, seq);
  }
  assert.equal(acted.size, 2, "both players made a move");
  const logs = await Promise.all(pages.map((p) => p.$$eval("#log li", (ls) => ls.length)));
  assert.ok(logs.every((n) => n > 0), `the logs: ${logs}`);

  // The friend leaves, handing the seat to an AI: their page now watches; the AI plays on.
  await f.page.selectOption("#leave-to", "random");
  await f.page.click("#leave");
  await f.page.waitForFunction(() => document.querySelector("#you").textContent === "watching");
  assert.match(await f.page.textContent("#notice"), /handed seat 1 to the AI \(random\)/);
  assert.equal(await f.page.locator("#actions li").count(), 0);
  const left = await state(page, id);
  assert.equal(left.seats[1], "random");
  const aiActed = async () => (await asSeat(page, `/api/games/${id}/record`)).steps.slice(left.seq).some((s) => s.act?.seat === 1);
  for (let n = 0; n < 40 && !(await aiActed()); n++) {
    const g = await state(page, id);
    if (g.to_act.over) break;
    if (g.to_act.decide?.seat === 0) await actOnce([page], id);
    else await page.waitForTimeout(100);
  }
  assert.ok(await aiActed(), "the AI never played the seat it was handed");
  await f.context.close();
  await page.close();
});

test("an open seat's link, then leave by forfeit: the game ends for both", async () => {
  const { page, id } = await createAndOpen(env.browser, env.base, "ms-d20", "duel", { opponent: "open" });
  const f = await friend();
  await f.page.goto(`${env.base}/games/${id}`);
  await f.page.waitForSelector("#join-box:not([hidden])");
  assert.equal(await f.page.textContent("#join-text"), "Seat 1 is free.");
  await f.page.click("#join");
  await f.page.waitForFunction(() => document.querySelector("#you").textContent === "you are seat 1");
  await f.page.waitForSelector("#leave-box:not([hidden])");
  await f.page.selectOption("#leave-to", "forfeit");
  await f.page.click("#leave");
  await f.page.waitForFunction(() => /^Game over/.test(document.querySelector("#prompt").textContent));
  assert.match(await f.page.textContent("#notice"), /You forfeited seat 1/);
  await page.waitForFunction(() => /^Game over/.test(document.querySelector("#prompt").textContent));
  assert.ok((await state(page, id)).to_act.over);
  await f.context.close();
  await page.close();
});

test("an invite link; a claim against a gone seat (refused while it is back, with the reason); a rematch with seats turned round", async () => {
  const { page, id, invites } = await createAndOpen(env.browser, env.base, "swtb", "outpost", { opponent: "human" });
  const f = await friend();
  await f.page.goto(`${env.base}${invites[1]}`);
  await f.page.waitForSelector("#table svg [data-piece]");
  assert.equal(await f.page.textContent("#you"), "you are seat 1");

  // Until the game waits on the friend; while their page is open they are not gone.
  await untilDecides([page, f.page], id, 1);
  await page.waitForSelector("#presence:not([hidden])");
  assert.match(await page.textContent("#presence-text"), new RegExp(`^Waiting on seat 1: last seen \\d+ s ago \\(gone after ${GONE} s\\)`));
  assert.ok(await page.isHidden("#claim"), "a claim offered against a seat that is there");

  // The friend closes the tab: after --gone-after the creator may claim.
  await f.page.close();
  await page.waitForSelector("#claim:not([hidden])", { timeout: (GONE + 6) * 1000 });
  assert.match(await page.textContent("#presence-text"), new RegExp(`gone \\(the limit is ${GONE} s\\)`));
  await page.screenshot({ path: join(shots, "claim.png") });

  // They come back just before the claim: the server refuses it and the page says why.
  const back = await f.context.newPage();
  await back.goto(`${env.base}/games/${id}`);
  await back.waitForSelector("#table svg [data-piece]");
  await back.close();
  const before = await state(page, id);
  await page.evaluate(() => document.querySelector("#claim").click());
  await page.waitForFunction(() => document.querySelector("#error").textContent.length > 0);
  assert.match(await page.textContent("#error"), new RegExp(`^seat 1 was seen \\d+ s ago; it is gone after ${GONE} s \\(claim again in \\d+ s\\)`));
  assert.equal((await state(page, id)).seq, before.seq, "a refused claim changes nothing");

  // Gone again: the claim wins.
  await page.waitForSelector("#claim:not([hidden])", { timeout: (GONE + 6) * 1000 });
  await page.click("#claim");
  await page.waitForFunction(() => /^Game over/.test(document.querySelector("#prompt").textContent));
  assert.match(await page.textContent("#notice"), /Seat 1 was gone and resigns/);
  const over = await state(page, id);
  assert.ok(over.to_act.over, "the claim did not end the game");

  // The rematch: the creator asks; the friend, back on the old game, sees it and follows.
  const g = await f.context.newPage();
  await g.goto(`${env.base}/games/${id}`);
  await g.waitForSelector("#rematch-box:not([hidden])");
  await page.click("#rematch");
  await page.waitForURL((u) => !u.pathname.endsWith(id));
  const next = page.url().split("/").pop();
  await page.waitForSelector("#table svg [data-piece]");
  assert.equal(await page.textContent("#you"), "you are seat 1", "the creator's seat did not turn round");
  await g.waitForSelector("#rematch-link");
  await g.click("#rematch");
  await g.waitForURL(`**/games/${next}`);
  await g.waitForSelector("#table svg [data-piece]");
  assert.equal(await g.textContent("#you"), "you are seat 0", "the friend's seat did not turn round");
  // Both play the new game, and see each other's moves.
  const { seat, seq } = await actOnce([g, page], next);
  await [g, page][1 - seat].waitForFunction((s) => Number(document.body.dataset.seq) >= s, seq);
  await f.context.close();
  await page.close();
});
