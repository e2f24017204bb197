// The club's web address suggested as its name is typed (templates/clubs/new.html), made as
// the server makes it (scorekeeper/services/clubs.slugify), until the address is typed itself.
// Left blank, the server takes the name's; taken, the server says the next one free.
(function () {
  "use strict";
  var slug = document.querySelector("input[data-slug-from]");
  var name = slug && document.getElementById(slug.dataset.slugFrom);
  if (!name) { return; }
  var spelled = { "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i" };
  var most = slug.maxLength > 0 ? slug.maxLength : 40;
  var least = slug.minLength > 0 ? slug.minLength : 2;
  function slugify(text) {
    var made = text.toLowerCase().replace(/[ßæœøłđðþı]/g, function (c) { return spelled[c]; })
      .normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    if (made.length > most) {
      // Cut between words where the part kept has a hyphen, else within the one word.
      var cut = made.slice(0, most);
      var whole = made.charAt(most) === "-" || cut.indexOf("-") < 0;
      made = (whole ? cut : cut.slice(0, cut.lastIndexOf("-"))).replace(/-+$/, "");
    }
    return made.length >= least ? made : "";
  }
  // An address typed (or one the server filled in) stays until it is emptied.
  var own = slug.value !== "" && slug.value !== slugify(name.value);
  slug.addEventListener("input", function () { own = slug.value !== ""; });
  name.addEventListener("input", function () {
    if (!own) { slug.value = slugify(name.value); }
  });
})();
