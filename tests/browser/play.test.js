// Whole games in the browser: SWTB, ms-d20 and SERM played to the end from the page against
// an AI seat — attacks clicked on the table (a piece, then its target) where the scene
// anchors one, prompts answered from the prompt box, anything else from the action list —
// then the finished game stepped through with the replay controls, its dice checked in the
// page (and a changed face caught), and its record exported. And the table on a phone-sized screen, with the action list folded below it.
//
// BATTLEMAT_BROWSER_DECISIONS caps the decisions a game may take (default 400).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { start, createAndOpen, state, screen, targetPoint, waitForSeq, myTurn, clickActs, shots } from "./harness.js";

let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const CAP = Number(process.env.BATTLEMAT_BROWSER_DECISIONS || 400);

for (const [game, scenario] of [["swtb", "outpost"], ["ms-d20", "duel"], ["serm", "skirmish"]]) {
  test(`${game}: a whole game from the page against the AI, then its replay`, async () => {
    const { page, id } = await createAndOpen(env.browser, env.base, game, scenario, { opponent: "random" });
    let g = await myTurn(page, id);
    // A hint: the AI's top candidates, each an action of the list.
    await page.click("#hint-button");
    await page.waitForSelector("#hints:not([hidden]) button");
    const hinted = await page.$$eval("#hints button", (bs) => bs.map((b) => b.dataset.text));
    const listed = await page.$$eval("#actions li", (ls) => ls.map((l) => l.dataset.text));
    assert.ok(hinted.length > 0 && hinted.every((t) => listed.includes(t)), `${hinted} not in the list`);
    let decisions = 0;
    while (!g.to_act.over) {
      assert.ok(decisions < CAP, `${game}: not over after ${CAP} decisions`);
      const attack = (g.scene.actions || []).find((a) => a.piece && a.target?.kind === "piece" && a.target.id !== a.piece);
      if (await page.isVisible("#decision")) {
        await page.click("#decision .choice button");
      } else if (attack) {
        const piece = g.scene.pieces.find((p) => p.id === attack.piece);
        const [px, py] = await screen(page, [piece.x, piece.y]);
        await page.mouse.click(px, py);
        const [tx, ty] = await screen(page, targetPoint(g.scene, attack.target));
        const acted = await clickActs(page, tx, ty);
        if (!acted && (await page.textContent("#error")).includes("choose one")) await page.click("#actions li.for-selected button");
        // A click that landed on something else (a base over the target's): the list makes it.
        else if (!acted) await page.click(`#actions li[data-text="${attack.text.replaceAll('"', '\\"')}"] button`);
      } else {
        await page.click("#actions li button");
      }
      await waitForSeq(page, id, g.seq);
      g = await myTurn(page, id);
      decisions++;
    }
    assert.match(await page.textContent("#prompt"), /^Game over/);
    await page.screenshot({ path: join(shots, `${game}-end.png`) });

    // The replay: the controls appear at the end; the setup's table differs from the end's.
    await page.waitForSelector("#replay:not([hidden])");
    const endSvg = await page.innerHTML("#table");
    await page.click("#rp-first");
    await page.waitForFunction(() => document.body.dataset.replayAt === "0");
    assert.match(await page.textContent("#rp-label"), /^step 0 of \d+ \(the setup\)/);
    assert.notEqual(await page.innerHTML("#table"), endSvg, "the setup looks like the end");
    await page.click("#rp-next");
    await page.waitForFunction(() => document.body.dataset.replayAt === "1");
    await page.screenshot({ path: join(shots, `${game}-replay.png`) });
    await page.click("#rp-last");
    await page.waitForFunction((n) => document.body.dataset.replayAt === String(n), g.seq);
    assert.equal(await page.innerHTML("#table"), endSvg, "the replay's last step is the end");

    // The dice checked in the page: every face recomputed from the revealed seed.
    await page.click("#verify-dice");
    await page.waitForFunction(() => /check out|problem/.test(document.querySelector("#dice-check").textContent));
    assert.match(await page.textContent("#dice-check"), /^all \d+ dice check out/);
    // The check can fail: one face changed on its way to the page is caught.
    await page.route(`**/api/games/${id}/dice`, async (route) => {
      const res = await route.fetch();
      const d = await res.json();
      const p = d.points.findLast((p) => p.outcomes.length > 1);
      p.face = p.outcomes.find((o) => o.value !== p.face).value;
      await route.fulfill({ response: res, json: d });
    });
    await page.click("#verify-dice");
    await page.waitForFunction(() => /check out|problem/.test(document.querySelector("#dice-check").textContent));
    assert.match(await page.textContent("#dice-check"), /^1 problem: step \d+/);
    await page.unroute(`**/api/games/${id}/dice`);

    // The record export: the whole game, its seed revealed now that it is over.
    const rec = await page.evaluate(async (href) => (await fetch(href)).json(), await page.getAttribute("#record", "href"));
    assert.equal(rec.steps.length, g.seq);
    assert.equal(typeof rec.dice.server.seed, "string");
    await page.close();
  });
}

test("a phone-sized screen: the table scales and the actions fold below it", async () => {
  const { page, id } = await createAndOpen(env.browser, env.base, "serm", "skirmish", { viewport: { width: 390, height: 844 } });
  await myTurn(page, id);
  const table = await page.locator("#table svg").boundingBox();
  const actions = await page.locator("#actions").boundingBox();
  assert.ok(table.width <= 390 && table.width > 300, `the table is ${table.width} wide`);
  assert.ok(actions.y >= table.y + table.height - 1, "the action list is beside the table, not below it");
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 392, `the page scrolls sideways: ${wide}`);
  await page.screenshot({ path: join(shots, "serm-phone.png"), fullPage: true });
  await page.close();
});

test("table dice: only the seat the server names is asked for the face", async () => {
  const { page, id, invites } = await createAndOpen(env.browser, env.base, "swtb", "outpost", { opponent: "human", dice: "table" });
  const other = await env.browser.newPage();
  await other.goto(`${env.base}${invites.find((h) => h.includes("token=") && h !== invites[0])}`);
  await other.waitForSelector("#table svg [data-piece]");
  // SWTB opens with each side's initiative dice: a die to roll before anyone acts.
  const g = await state(page, id);
  assert.ok(g.to_act.chance, `the game does not wait for a die: ${JSON.stringify(g.to_act)}`);
  assert.equal(typeof g.rolls, "number", "the server names who rolls");
  const [roller, waiter] = g.rolls === 0 ? [page, other] : [other, page];
  await roller.waitForSelector("#dice button.face");
  assert.equal(await waiter.locator("#dice button.face").count(), 0, "a seat not named was asked for the face");
  assert.match(await waiter.textContent("#dice"), new RegExp(`Waiting for seat ${g.rolls} to roll`));
  await roller.click("#dice button.face");
  await waitForSeq(page, id, g.seq);
  await other.close();
  await page.close();
});
