// An import job's page (templates/clubs/import_job.html): its bar and words moved as the job
// goes, by asking the page's data-import-job address every data-poll-ms; once the job has
// ended, the page is fetched again to show its report. Every word is the server's own.
(function () {
  "use strict";
  var job = document.querySelector("[data-import-job]");
  if (!job || !window.fetch) { return; }
  var bar = job.querySelector("[data-bar]");
  var words = job.querySelector("[data-words]");
  var every = Number(job.dataset.pollMs) || 1000;
  function ask() {
    fetch(job.dataset.importJob, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (answer) {
        if (!answer.ok) { throw new Error(String(answer.status)); }
        return answer.json();
      })
      .then(function (state) {
        if (state.ended) { window.location.reload(); return; }
        bar.max = state.max;
        bar.value = state.value;
        bar.textContent = Math.floor((100 * state.value) / state.max) + "%";
        if (words.textContent !== state.words) { words.textContent = state.words; }
        window.setTimeout(ask, every);
      })
      .catch(function () { window.setTimeout(ask, every * 5); });
  }
  window.setTimeout(ask, every);
})();
