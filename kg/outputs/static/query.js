// kg query page: a textarea, the example queries and a results table. Plain JavaScript,
// no libraries and no requests beyond this server, so it works offline.
"use strict";

const ENDPOINT = "/sparql";
const PREFIXES = {
  "https://kg.example/ns#": "kg:",
  "https://kg.example/id/": "id:",
  "http://schema.org/": "schema:",
  "http://www.w3.org/2001/XMLSchema#": "xsd:",
  "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf:",
  "http://www.w3.org/2000/01/rdf-schema#": "rdfs:",
  "http://www.w3.org/ns/prov#": "prov:",
};

const $ = (id) => document.getElementById(id);
let examples = [];

function shorten(iri) {
  for (const [base, prefix] of Object.entries(PREFIXES)) {
    if (iri.startsWith(base) && iri.length > base.length) return prefix + iri.slice(base.length);
  }
  return "<" + iri + ">";
}

function setStatus(text, isError) {
  const status = $("status");
  status.textContent = text;
  status.className = isError ? "error" : "";
}

function renderTable(data) {
  const output = $("output");
  output.replaceChildren();
  if (typeof data.boolean === "boolean") {
    const p = document.createElement("p");
    p.textContent = "Answer: " + data.boolean;
    output.appendChild(p);
    return 1;
  }
  const vars = data.head.vars || [];
  const rows = data.results.bindings;
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const v of vars) {
    const th = document.createElement("th");
    th.textContent = v;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const v of vars) {
      const td = tr.insertCell();
      const term = row[v];
      if (!term) continue;
      if (term.type === "uri") {
        td.className = "uri";
        td.textContent = shorten(term.value);
        td.title = term.value;
      } else if (term.type === "bnode") {
        td.textContent = "_:" + term.value;
      } else {
        td.textContent = term.value + (term["xml:lang"] ? "@" + term["xml:lang"] : "");
        if (term.datatype) td.title = shorten(term.datatype);
      }
    }
  }
  output.appendChild(table);
  return rows.length;
}

function renderText(text) {
  const pre = document.createElement("pre");
  pre.textContent = text;
  $("output").replaceChildren(pre);
}

async function runQuery() {
  const query = $("query").value;
  const choice = $("format").value;
  const accept = choice === "table"
    ? "application/sparql-results+json, text/turtle;q=0.9"
    : choice;
  setStatus("Running\u2026", false);
  $("output").replaceChildren();
  const started = performance.now();
  try {
    const response = await fetch(ENDPOINT, {
      method: "POST",
      headers: { "Content-Type": "application/sparql-query", "Accept": accept },
      body: query,
    });
    const text = await response.text();
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    if (!response.ok) {
      setStatus("HTTP " + response.status + ": " + text, true);
      return;
    }
    const type = response.headers.get("Content-Type") || "";
    if (choice === "table" && type.startsWith("application/sparql-results+json")) {
      const n = renderTable(JSON.parse(text));
      setStatus(n + (n === 1 ? " row" : " rows") + " in " + seconds + " s", false);
    } else {
      renderText(text);
      setStatus(type + " in " + seconds + " s", false);
    }
  } catch (err) {
    setStatus("The request failed: " + err, true);
  }
}

function showExample(name) {
  const example = examples.find((e) => e.name === name);
  if (!example) return;
  $("query").value = example.query;
  $("description").textContent = example.description;
  history.replaceState(null, "", "#example=" + encodeURIComponent(name));
}

async function loadExamples() {
  try {
    const response = await fetch("/examples.json");
    examples = await response.json();
  } catch (err) {
    examples = [];
  }
  const select = $("examples");
  for (const example of examples) {
    const option = document.createElement("option");
    option.value = example.name;
    option.textContent = example.name + " \u2014 " + example.title;
    select.appendChild(option);
  }
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("query")) {
    $("query").value = hash.get("query");
  } else if (hash.get("example")) {
    select.value = hash.get("example");
    showExample(hash.get("example"));
  }
}

$("examples").addEventListener("change", (e) => showExample(e.target.value));
$("run").addEventListener("click", runQuery);
$("query").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    runQuery();
  }
});
$("permalink").addEventListener("click", (e) => {
  e.preventDefault();
  history.replaceState(null, "", "#query=" + encodeURIComponent($("query").value));
});
$("endpoint").textContent = location.origin + ENDPOINT;
loadExamples();
