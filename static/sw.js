// The service worker: pages opened once still open with no signal, and a deal entered with no
// signal waits on the phone until it can be sent, once (its idempotency key).
"use strict";

// shell-v4: the app's files by version (their addresses end in ?v=, the file's version).
const SHELL = "shell-v4";
const PAGES = "pages-v1";
// Stored when the worker installs, which app.js asks for only once the page has loaded and the
// phone is idle. The files the page loaded are fresh in the browser's cache then (the app
// serves a file asked for by its version as never changing: scorekeeper/plumbing/compress.py), so
// the rest is fetched. Each name's version is filled in as the app serves this script, so a
// new version of any of them is a new worker, which stores it.
const SHELL_FILES = [
  "/static/app.css?v=",
  "/static/app.js?v=",
  "/static/comfort.js?v=",
  "/static/larger.css?v=",
  "/static/form.js?v=",
  "/static/live.js?v=",
  "/static/offline.js?v=",
  "/static/provisional.js?v=",
  "/static/scorer.js?v=",
  "/static/scorer_game.js?v=",
  "/static/scorer_form.js?v=",
  "/static/icon.svg?v=",
  "/static/manifest.webmanifest?v=",
  "/offline",
  "/rules",
];
// A page that takes longer than this on poor signal is shown from the phone, if it has it.
const PATIENCE_MS = 4000;
// A game's pages live under its private link, /t/ and the game's secret: one segment of the
// path, whatever its shape (the server's alone: plumbing/models/games.py), never checked here.
// A deal form: the whole next deal, a correction, or one side's own line of the next deal.
const DEAL_FORM = /^\/t\/([^/]+)\/deals\/(?:new|\d+\/edit|next\/\d+)$/;
const LINE = /\/deals\/next\/\d+$/;
const KEEPABLE = /^\/(t\/[^/]+(\/deals\/new|\/deals\/next\/\d+|\/rules|\/scorer)?|rules(\/[\w-]+)?)?$/;
// What the phone's scorer is told of a game (static/scorer.js): kept with the game's pages.
const SCORER = /^\/t\/[^/]+\/scorer$/;
// Posts after which the phone forgets every page it kept: signing in (as anyone: another
// organiser on the same phone must not find the last one's pages), signing out, and forgetting
// its games.
const FORGETTING = ["/login", "/signup", "/logout", "/my-games/forget"];
// Kept by workers before no-store was honoured: organiser and private club pages among them.
const CLUB_PAGES = /^\/clubs(\/|$)/;
// The forgetting under way: a page kept meanwhile waits for it, so it is not forgotten too soon.
let forgetting = Promise.resolve();
// How many times the phone has forgotten its pages: a page asked for before the last time (the
// game's other pages, fetched in the background while "Forget my games" was tapped) is not kept.
let forgotten = 0;
const NEVER_KEPT = /^\/(api|login|logout|signup)\b|\/(live|entering|preview)$|\.csv$/;
// The deals waiting to send: their store on the phone, and sending them (sw_outbox.js).
importScripts("/static/sw_outbox.js?v=");

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      // Without the phone's cookies: the kept "No signal" page names nobody signed in (kept
      // while an organiser was, it said "Signed in as olga" after she signed out elsewhere).
      .then((cache) => cache.addAll(SHELL_FILES.map((url) => new Request(url, { credentials: "omit" }))))
      .then(keepOpenGames)
      .then(() => self.skipWaiting()),
  );
});

// A first visit: the game whose page is open (its QR code's scoreboard, or its deal form) is
// kept with the app's files, before this worker looks after the page, so that the phone
// scores it with no signal from then on (issue 40: its deal form and what the phone's scorer
// is told were kept only from the next page shown). A page not kept costs the worker nothing.
const GAME_PAGE = /^\/t\/([^/]+)(?:\/|$)/;
async function keepOpenGames() {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const urls = [];
  for (const client of windows) {
    const path = new URL(client.url).pathname;
    const game = path.match(GAME_PAGE);
    if (!game) continue;
    const link = `/t/${game[1]}`;
    urls.push(path, link, `${link}/deals/new`, `${link}/scorer`, `${link}/rules`);
  }
  await keepPages([...new Set(urls)], false).catch(() => {});
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => ![SHELL, PAGES].includes(n)).map((n) => caches.delete(n))),
      )
      .then(forgetClubPages)
      .then(forgetOldFiles)
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST") {
    // Signing in or out on a shared phone, or forgetting its games, forgets the pages kept on it
    // (the home page's list of games among them); deals waiting to send stay.
    if (FORGETTING.includes(url.pathname)) {
      forgotten += 1;
      forgetting = caches.delete(PAGES);
      event.waitUntil(forgetting);
    }
    if (request.mode === "navigate" && DEAL_FORM.test(url.pathname)) {
      event.respondWith(sendOrKeep(request, url));
    }
    return;
  }
  if (request.method !== "GET" || NEVER_KEPT.test(url.pathname)) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(fileFromPhoneOrNetwork(request));
  } else if (request.mode === "navigate" || SCORER.test(url.pathname)) {
    event.respondWith(fromNetworkOrPhone(request));
  }
});

// CSS, JS and icons. A file at the address of its version never changes (the app answers it
// "immutable"): the phone's copy, if it has it, is the file. Any other address (a version this
// phone does not hold yet, or none at all) is asked for, as a page is; with no signal, or too
// slow a one, the phone's copy of the same file under any version answers, so a page kept
// before a release still finds its CSS and scripts.
async function fileFromPhoneOrNetwork(request) {
  const cache = await caches.open(SHELL);
  const exact = await cache.match(request);
  if (exact) return exact;
  const network = fetch(request).then((response) => {
    const lasting = /\bimmutable\b/.test(response.headers.get("Cache-Control") || "");
    if (response.ok && lasting) keepFile(cache, request, response.clone());
    return response;
  });
  const slow = new Promise((resolve) => setTimeout(resolve, PATIENCE_MS, null));
  try {
    const first = await Promise.race([network, slow]);
    if (first) return first;
    return (await cache.match(request, { ignoreSearch: true })) || (await network);
  } catch (error) {
    return (await cache.match(request, { ignoreSearch: true })) || Response.error();
  }
}

// A file's current version, kept in place of the one before.
async function keepFile(cache, request, response) {
  await cache.delete(request, { ignoreSearch: true });
  await cache.put(request, response);
}

// At activation: the versions of the app's files that this worker's SHELL_FILES replaced.
async function forgetOldFiles() {
  const cache = await caches.open(SHELL);
  const current = SHELL_FILES.map((name) => new URL(name, self.location.origin));
  const hrefs = current.map((url) => url.href);
  const paths = current.map((url) => url.pathname);
  const kept = await cache.keys();
  const old = kept.filter((r) => paths.includes(new URL(r.url).pathname) && !hrefs.includes(r.url));
  await Promise.all(old.map((request) => cache.delete(request)));
}

// Pages (and what the phone's scorer is told of a game): the network first, so every phone sees
// the latest totals; the phone's copy when there is no signal, or the signal is too slow.
async function fromNetworkOrPhone(request) {
  const asked = forgotten;
  const network = fetch(request).then(async (response) => {
    if (response.ok && !response.redirected) await keepPage(request.url, response.clone(), asked);
    flushSoon(); // a request got through: so may the deals waiting to send
    return response;
  });
  const slow = new Promise((resolve) => setTimeout(resolve, PATIENCE_MS, null));
  try {
    const first = await Promise.race([network, slow]);
    if (first) return first;
    const kept = await keptPage(request.url);
    return kept ? fromPhone(kept) : await network;
  } catch (error) {
    const offline = request.mode === "navigate" ? await caches.match("/offline") : null;
    const kept = (await keptPage(request.url)) || offline;
    return kept ? fromPhone(kept) : Response.error();
  }
}

// A page shown from the phone says so in its own HTML (`<html data-from-phone>`), so app.js
// shows "No signal" from the first moment, with no message to race the page's loading and no
// inline script. navigator.onLine cannot tell: on wifi with no internet behind it, it says true.
async function fromPhone(response) {
  const type = response.headers.get("Content-Type") || "";
  if (!type.startsWith("text/html")) return response;
  const html = (await response.text()).replace(/<html\b/, "<html data-from-phone");
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: response.status, headers: headers });
}

// A kept page is stored without its one-time messages ("Deal 3 saved.") and without its
// idempotency key: app.js gives every form shown from the phone a fresh one, so two deals
// entered on one kept form are two deals, not one sent twice.
//
// A page sent no-store (an organiser's page, a private club's: web/clubs/__init__.py) is never kept,
// and any copy of it from before is dropped, so the phone never shows it with no signal.
async function keepPage(address, response, asked) {
  await forgetting;
  if (asked !== forgotten) return; // asked for before the phone forgot its pages
  if (/(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get("Cache-Control") || "")) {
    await (await caches.open(PAGES)).delete(address, { ignoreSearch: true });
    return;
  }
  const type = response.headers.get("Content-Type") || "";
  if (type.startsWith("application/json") && SCORER.test(new URL(address).pathname)) {
    const body = await response.text();
    await putKept(address, new Response(body, { headers: { "Content-Type": type } }), asked);
    return;
  }
  if (!type.startsWith("text/html")) return;
  const html = (await response.text())
    .replace(/<p class="flash[^"]*" role="status">[\s\S]*?<\/p>/g, "")
    .replace(/(name="idempotency_key" type="hidden" value=")[0-9a-f]*"/, '$1"');
  await putKept(address, new Response(html, { headers: { "Content-Type": type } }), asked);
}

// The last step of keeping a page, unless the phone forgot its pages since it was asked for.
// Asked again after the last wait (reading the page, opening the cache): "Forget my games"
// tapped while a game's page was being read would otherwise see it put back afterwards.
async function putKept(address, response, asked) {
  const cache = await caches.open(PAGES);
  if (asked === forgotten) await cache.put(address, response);
}

// Club pages kept by a worker from before no-store was honoured: gone once, at activation.
// A public club's pages are kept again the next time they are shown with signal.
async function forgetClubPages() {
  const cache = await caches.open(PAGES);
  const kept = await cache.keys();
  const clubs = kept.filter((request) => CLUB_PAGES.test(new URL(request.url).pathname));
  await Promise.all(clubs.map((request) => cache.delete(request)));
}

async function keptPage(address) {
  const cache = await caches.open(PAGES);
  return (await cache.match(address)) || (await cache.match(address, { ignoreSearch: true }));
}

// A deal form sent with no signal is kept, and the phone goes to the game's scoreboard, where it
// shows as waiting to send. With signal the form goes as usual.
async function sendOrKeep(request, url) {
  const body = await request.clone().text();
  const fields = new URLSearchParams(body);
  const key = fields.get("idempotency_key") || "";
  try {
    const response = await fetch(request);
    // Saved (or saved already: the key): a kept copy is done with. A refusal or a deal saved
    // meanwhile is on the person's screen now, and stays kept until they save or discard it.
    if (key && response.type === "opaqueredirect") await outbox.remove(key);
    flushSoon();
    return response;
  } catch (error) {
    const game = url.pathname.match(DEAL_FORM)[1];
    // A kept deal fixed and saved again keeps its place in the queue (its first `at`): the
    // deals entered after it are sent after it, with the numbers the phone showed them.
    const was = key ? await outbox.get(key) : null;
    await outbox.put({
      key: key || crypto.randomUUID().replace(/-/g, ""),
      game: game,
      url: url.pathname,
      body: body,
      // A new deal's form names its number; a correction's address does.
      number: Number(fields.get("number") || (url.pathname.match(/(\d+)\/edit$/) || [])[1]) || null,
      at: was ? was.at : Date.now(),
      state: "waiting",
      message: "",
    });
    announce();
    return Response.redirect(`/t/${game}#outbox`, 303);
  }
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  const reply = (items) => event.source && event.source.postMessage({ type: "outbox", items });
  let work;
  if (message.type === "flush") work = flush().then(() => outbox.all());
  else if (message.type === "discard") work = discard(message.key).then(announce).then(flushSoon);
  else if (message.type === "keep") work = keepPages(message.urls || [], !!message.again);
  else if (message.type === "list") work = outbox.all();
  else return;
  event.waitUntil(Promise.resolve(work).then((items) => Array.isArray(items) && reply(items)));
});

// The pages a game needs at the table (its deal form, its rule card), fetched so that they open
// with no signal even if nobody tapped them yet. `again`: fetched anew even if kept, as a page
// shown with signal asks, so that the kept deal form is for the deal now to be entered (one
// kept before a deal was saved would otherwise offer that deal again, and meet a conflict).
async function keepPages(urls, again) {
  const asked = forgotten; // the whole list is for the phone as it was when asked
  const cache = await caches.open(PAGES);
  for (const address of urls) {
    const url = new URL(address, self.location.origin);
    if (url.origin !== self.location.origin || !KEEPABLE.test(url.pathname)) continue;
    if (asked !== forgotten) return;
    if (!again && (await cache.match(url.href))) continue;
    try {
      // The header: this fetch leaves the person's flashed message for the page they open
      // (KEPT_PAGE_HEADER, scorekeeper/plumbing/security.py).
      const headers = { "X-Kept-Page": "1" };
      const response = await fetch(url.href, { credentials: "same-origin", headers: headers });
      if (response.ok && !response.redirected) await keepPage(url.href, response, asked);
    } catch (error) {
      return; // no signal: the next page shown asks again
    }
  }
}
