// The service worker's outbox (imported by static/sw.js, whose constants it shares): the deals
// entered with no signal, kept in IndexedDB until they are sent, oldest first, each once (its
// idempotency key); one the server refuses holds its game's later deals until the person fixes
// or discards it.
"use strict";

// Sending what waits, oldest first. A game's later deals wait behind one that needs a person.
// Tried when a request has just got through (a page fetched here, a page's live poll answered)
// and every 5 seconds while deals wait; a send that fails leaves the deal waiting.
//
// One send at a time. A flush asked for while one runs goes after it: the signal may have come
// back since the running one began, and its answer would otherwise be the old failure.
let flushing = null;
let nextFlush = null;
function flush() {
  if (!flushing) {
    flushing = sendAll().finally(() => (flushing = null));
    return flushing;
  }
  nextFlush =
    nextFlush ||
    flushing
      .catch(() => {})
      .then(() => {
        nextFlush = null;
        return flush();
      });
  return nextFlush;
}
let flushTimer = null;
function flushSoon() {
  clearTimeout(flushTimer);
  flushTimer = setTimeout(flush, 200);
}

async function sendAll() {
  const items = (await outbox.all()).sort((a, b) => a.at - b.at);
  const stuck = new Set(items.filter((i) => i.state !== "waiting").map((i) => i.game));
  let changed = false;
  for (const item of items) {
    if (item.state !== "waiting" || stuck.has(item.game)) continue;
    let response;
    try {
      response = await fetch(item.url, {
        method: "POST",
        body: item.body,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        credentials: "same-origin",
        redirect: "manual",
      });
    } catch (error) {
      break; // still no signal: try again later
    }
    changed = true;
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      await outbox.remove(item.key); // saved, or saved already: the key makes it once
      continue;
    }
    // The server's trouble, or this game's or address's allowance of writes spent for now
    // (429, services/writes.py): try again later, as the page's outbox does every few seconds.
    if (response.status >= 500 || response.status === 429) break;
    item.state = response.status === 409 ? "conflict" : "refused";
    // The page words it from what the server states (services/queue_words.py `sent_...`).
    item.status = response.status;
    await outbox.put(item);
    stuck.add(item.game);
  }
  if (changed) announce();
}

async function announce() {
  const items = await outbox.all();
  const windows = await self.clients.matchAll({ type: "window" });
  windows.forEach((client) => client.postMessage({ type: "outbox", items: items }));
}

// A deal discarded: the game's deals (and sides' lines) waiting behind it move up one, as the
// server will number them once they are sent.
async function discard(key) {
  const gone = await outbox.get(key);
  await outbox.remove(key);
  if (!gone || !gone.number || /\/edit$/.test(gone.url)) return;
  for (const item of await outbox.all()) {
    if (item.game !== gone.game || /\/edit$/.test(item.url) || !(item.number > gone.number)) continue;
    const fields = new URLSearchParams(item.body);
    item.number -= 1;
    if (fields.has("number")) fields.set("number", String(item.number));
    item.body = fields.toString();
    await outbox.put(item);
  }
}

// The deals waiting to send, in IndexedDB: it outlives the worker and the page.
const outbox = {
  open() {
    this.db =
      this.db ||
      new Promise((resolve, reject) => {
        const request = indexedDB.open("scorekeeper", 1);
        request.onupgradeneeded = () => request.result.createObjectStore("outbox", { keyPath: "key" });
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    return this.db;
  },
  async run(mode, act) {
    const db = await this.open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction("outbox", mode);
      const result = act(tx.objectStore("outbox"));
      tx.oncomplete = () => resolve(result && result.result);
      tx.onerror = () => reject(tx.error);
    });
  },
  all() {
    return this.run("readonly", (store) => store.getAll());
  },
  get(key) {
    return this.run("readonly", (store) => store.get(key));
  },
  put(item) {
    return this.run("readwrite", (store) => store.put(item));
  },
  remove(key) {
    return this.run("readwrite", (store) => store.delete(key));
  },
};
