// The marsc dashboard: submits scripts, lists jobs live from one multiplexed
// server-sent event stream (/api/events), and shows the selected job's progress
// by op, its task stream per worker, each worker's memory and spill, output,
// source, diagnostics and graphs coloured as the job runs.
"use strict";

const $ = (id) => document.getElementById(id);
const jobs = new Map();      // id -> summary
let selected = null;         // id of the job shown on the right
let detail = null;           // its detail (ops, workers)
let spans = [];              // its task-stream rows [worker, start, end, op, subtask]
let graphStage = null;       // the stage of the graph drawn now, if any
window.marscErrors = [];
window.addEventListener("error", (e) => window.marscErrors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.marscErrors.push(String(e.reason)));
document.addEventListener("securitypolicyviolation", (e) => window.marscErrors.push("CSP: " + e.violatedDirective));

async function api(path, options = {}) {
  const init = { credentials: "same-origin", ...options };
  if (init.body !== undefined) init.headers = { "Content-Type": "application/json" };
  const response = await fetch("/api" + path, init);
  if (response.status === 401) { $("login").hidden = false; throw new Error("unauthorized"); }
  return response;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    // Styles through the CSSOM: the page's CSP forbids style attributes.
    if (k === "class") node.className = v;
    else if (k === "style") node.style.cssText = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

function fraction(p) { return p && p.total ? p.done / p.total : 0; }

function renderJobs() {
  const body = $("jobs").querySelector("tbody");
  body.replaceChildren();
  const ids = [...jobs.keys()].sort((a, b) => b - a);
  for (const id of ids) {
    const job = jobs.get(id);
    const pct = Math.round(100 * (job.state === "SUCCEEDED" ? 1 : fraction(job.progress)));
    const bar = el("div", { class: "bar" }, el("div", { class: "fill " + job.state, style: `width:${pct}%` }));
    const cancel = ["QUEUED", "PREPARING", "RUNNING"].includes(job.state)
      ? el("button", { class: "small", onclick: (e) => { e.stopPropagation(); cancelJob(id); } }, "cancel") : "";
    const row = el("tr", { class: id === selected ? "selected" : "", "data-id": id, onclick: () => select(id) },
      el("td", {}, String(id)), el("td", {}, job.name), el("td", {}, el("span", { class: "state " + job.state }, job.state)),
      el("td", {}, bar), el("td", {}, cancel));
    body.append(row);
  }
}

function connect() {
  const source = new EventSource("/api/events");
  source.onopen = () => { $("conn").textContent = "live"; $("conn").className = "conn live"; };
  source.onerror = () => { $("conn").textContent = "reconnecting…"; $("conn").className = "conn"; };
  source.addEventListener("snapshot", (e) => {
    const data = JSON.parse(e.data);
    jobs.clear();
    for (const job of data.jobs) jobs.set(job.id, job);
    renderJobs();
    if (selected !== null) select(selected);
  });
  source.addEventListener("state", (e) => {
    const job = JSON.parse(e.data);
    jobs.set(job.id, job);
    renderJobs();
    if (job.id === selected) {
      showMeta(job);
      // Entering RUNNING brings the ops; ending brings output and diagnostics.
      if (["RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"].includes(job.state)) select(job.id);
    }
  });
  source.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    const job = jobs.get(p.id);
    if (job) { job.progress = { done: p.done, total: p.total, workers: p.workers }; }
    renderJobs();
    if (p.id === selected && job) showMeta(job);
    if (p.id === selected && detail) {
      p.ops.forEach(([done, total], i) => { if (detail.progress.ops[i]) { detail.progress.ops[i].done = done; detail.progress.ops[i].total = total; } });
      detail.progress.workers = p.workers;
      if (p.memory) detail.progress.memory = p.memory;
      spans.push(...p.spans);
      renderOps(); drawStream(); renderWorkers(); colourGraph();
    }
  });
  source.addEventListener("removed", (e) => { jobs.delete(JSON.parse(e.data).id); renderJobs(); });
}

function showMeta(job) {
  $("job-title").textContent = `Job ${job.id} · ${job.name}`;
  const times = job.finished_at && job.started_at ? ` · ${(job.finished_at - job.started_at).toFixed(2)} s` : "";
  $("job-meta").replaceChildren(el("span", { class: "state " + job.state, id: "job-state" }, job.state),
    ` ${job.progress.done}/${job.progress.total} subtasks${times}`);
  $("cancel").hidden = !["QUEUED", "PREPARING", "RUNNING", "CANCELLING"].includes(job.state);
}

async function select(id) {
  if (selected !== id) { $("graph").replaceChildren(); graphStage = null; }
  selected = id;
  renderJobs();
  const response = await api(`/jobs/${id}`);
  if (!response.ok) return;
  detail = await response.json();
  if (selected !== id) return;
  showMeta(detail);
  const s = await (await api(`/jobs/${id}/spans`)).json();
  spans = s.spans;
  detail.progress.memory = s.memory; detail.progress.memory_limit = s.memory_limit;
  renderOps(); drawStream(); renderWorkers(); colourGraph();
  const source = await (await api(`/jobs/${id}/source`)).text();
  renderSource(source, detail.error);
  const done = ["SUCCEEDED", "FAILED", "CANCELLED"].includes(detail.state);
  const out = done ? await (await api(`/jobs/${id}/output`)).text() : "";
  $("output").textContent = out + (detail.error_text && detail.state === "FAILED" ? detail.error_text : "");
  $("output").className = detail.state === "FAILED" ? "failed" : "";
  $("trace-link").hidden = !done; $("trace-link").href = `/api/jobs/${id}/trace`;
  $("stats-link").hidden = detail.state !== "SUCCEEDED"; $("stats-link").href = `/api/jobs/${id}/stats`;
  showDiagnostics(detail.error);
}

function renderSource(text, error) {
  const bad = new Set(((error && error.errors) || []).map((e) => e.line));
  $("source").replaceChildren(...text.split("\n").map((line, i) =>
    el("div", { class: "line" + (bad.has(i + 1) ? " bad" : ""), "data-line": i + 1 }, el("span", { class: "ln" }, String(i + 1)), line + "\n")));
}

function highlight(line, on) {
  for (const node of document.querySelectorAll(`#source .line[data-line="${line}"]`)) node.classList.toggle("hot", on);
}

function opColor(i) { return `hsl(${(i * 67) % 360} 65% 55%)`; }
function workerColor(w) { return `hsl(${(w * 137 + 210) % 360} 55% 52%)`; }

function bytes(n) {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
  return `${i ? n.toFixed(1) : n} ${units[i]}`;
}

// Each worker: subtasks run, chunk memory held now against the job's limit (or
// its own peak), the peak, and bytes spilled to disk.
function renderWorkers() {
  const memory = (detail && detail.progress.memory) || [];
  const limit = detail && detail.progress.memory_limit;
  const ran = new Map();
  for (const row of spans) ran.set(row[0], (ran.get(row[0]) || 0) + 1);
  const scale = limit || Math.max(1, ...memory.map((m) => m[1]));
  $("workers-panel").replaceChildren(...memory.map(([held, peak, spilled], w) => {
    const pct = Math.min(100, Math.round(100 * held / scale));
    const peakPct = Math.min(100, Math.round(100 * peak / scale));
    return el("div", { class: "worker", "data-worker": w },
      el("span", { class: "swatch", style: `background:${workerColor(w)}` }),
      el("span", {}, `worker ${w}`),
      el("div", { class: "bar mem", title: `held ${bytes(held)} of ${limit ? bytes(limit) + " (limit)" : bytes(peak) + " (peak)"}` },
        el("div", { class: "fill", style: `width:${pct}%;background:${workerColor(w)}` }),
        el("div", { class: "peak", style: `left:${peakPct}%` })),
      el("span", { class: "count" }, `${ran.get(w) || 0} subtasks · ${bytes(held)} held · peak ${bytes(peak)}` +
        (spilled ? ` · spilled ${bytes(spilled)}` : "")));
  }));
}

function renderOps() {
  const ops = (detail && detail.progress.ops) || [];
  $("ops").replaceChildren(...ops.map((op, i) => {
    const pct = op.total ? Math.round(100 * op.done / op.total) : 0;
    return el("div", { class: "op", onmouseenter: () => highlight(op.line, true), onmouseleave: () => highlight(op.line, false) },
      el("span", { class: "swatch", style: `background:${opColor(i)}` }), el("span", { class: "opname" }, op.line ? `line ${op.line}: ${op.text}` : op.text),
      el("div", { class: "bar" }, el("div", { class: "fill", style: `width:${pct}%;background:${opColor(i)}` })),
      el("span", { class: "count" }, `${op.done}/${op.total}`));
  }));
}

function drawStream() {
  const canvas = $("stream");
  const workers = Math.max(1, (detail && detail.progress.workers) || 1);
  const rowH = 22;
  canvas.width = canvas.clientWidth || 800;
  canvas.height = workers * rowH + 18;
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const end = spans.reduce((m, s) => Math.max(m, s[2]), 1);
  const left = 64, width = canvas.width - left - 8;
  ctx.font = "11px sans-serif";
  for (let w = 0; w < workers; w++) { ctx.fillStyle = "#667"; ctx.fillText(`worker ${w}`, 4, w * rowH + 15); ctx.fillStyle = "#f4f5f8"; ctx.fillRect(left, w * rowH + 2, width, rowH - 4); }
  for (const [w, s, e, op] of spans) {
    ctx.fillStyle = opColor(op);
    const x = left + (s / end) * width;
    ctx.fillRect(x, w * rowH + 3, Math.max(1, ((e - s) / end) * width), rowH - 6);
  }
  ctx.fillStyle = "#667"; ctx.fillText(`${(end / 1000).toFixed(1)} ms`, canvas.width - 70, canvas.height - 3);
}

function showDiagnostics(error) {
  const list = $("diagnostics");
  list.replaceChildren();
  const marks = new Map();
  if (error && error.kind !== "cancelled") for (const e of error.errors) {
    const where = e.line ? `${e.line}:${e.column} ` : "";
    list.append(el("li", { class: "diagnostic" }, `${where}${e.message}${e.label ? " — " + e.label : ""}${e.help ? " (help: " + e.help + ")" : ""}`));
    if (e.line) marks.set(e.line, e.message);
  }
  renderGutter(marks);
}

function renderGutter(marks = new Map()) {
  const lines = $("editor").value.split("\n").length;
  $("gutter").replaceChildren(...Array.from({ length: lines }, (_, i) =>
    el("div", { class: marks.has(i + 1) ? "mark" : "", title: marks.get(i + 1) || "" }, String(i + 1))));
}

async function submit() {
  const body = { script: $("editor").value, name: $("name").value || "script.mt", options: { workers: Number($("workers").value) || 1 } };
  const response = await api("/jobs", { method: "POST", body: JSON.stringify(body) });
  const job = await response.json();
  if (!response.ok) { $("diagnostics").replaceChildren(el("li", { class: "diagnostic" }, job.error.message)); return; }
  // Its events may have come before this answer: keep the newer state.
  if (!jobs.has(job.id)) jobs.set(job.id, job);
  renderJobs(); select(job.id);
}

async function cancelJob(id) { await api(`/jobs/${id}/cancel`, { method: "POST", body: "{}" }); }

// Draws the chosen graph inline (so its nodes can be coloured as the job runs):
// tileable ops filled by their op's progress, subtasks by the worker that ran them.
async function draw() {
  if (selected === null) return;
  const stage = $("stage").value, id = selected;
  const response = await api(`/jobs/${id}/graph/${stage}?format=svg`);
  if (selected !== id) return;
  if (!response.ok) {
    const message = (await response.json()).error.message;
    graphStage = null;
    $("graph").replaceChildren(el("p", { class: "note" }, message + ". Progress by op above sums it up."));
    return;
  }
  const doc = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  graphStage = stage;
  $("graph").replaceChildren(svg, legend(stage));
  for (const node of svg.querySelectorAll("g.node")) {
    const name = node.querySelector("title")?.textContent || "";
    const op = stage === "tileable" ? opOfTileable(name) : -1;
    if (op >= 0) {
      const line = detail.progress.ops[op].line;
      node.addEventListener("mouseenter", () => highlight(line, true));
      node.addEventListener("mouseleave", () => highlight(line, false));
    }
  }
  colourGraph();
}

function opOfTileable(name) {
  const ops = (detail && detail.progress.ops) || [];
  return ops.findIndex((op) => `n${op.tileable}` === name);
}

function legend(stage) {
  if (stage === "subtask") {
    const workers = Math.max(1, (detail && detail.progress.workers) || 1);
    return el("div", { class: "legend" }, "ran on: ", ...Array.from({ length: workers }, (_, w) =>
      el("span", {}, el("span", { class: "swatch", style: `background:${workerColor(w)}` }), ` worker ${w} `)), "· white: not yet");
  }
  if (stage === "tileable") return el("div", { class: "legend" }, "filled as each op's subtasks finish (colours as in Progress by op); point at an op to see its line");
  return el("div", { class: "legend" }, "");
}

function fillShape(node, colour, opacity) {
  for (const shape of node.querySelectorAll("polygon, ellipse")) {
    shape.setAttribute("fill", colour);
    shape.setAttribute("fill-opacity", String(opacity));
  }
}

function colourGraph() {
  const svg = $("graph").querySelector("svg");
  if (!svg || !detail) return;
  if (graphStage === "tileable") {
    const ops = detail.progress.ops || [];
    for (const node of svg.querySelectorAll("g.node")) {
      const op = opOfTileable(node.querySelector("title")?.textContent || "");
      if (op < 0) continue;
      const { done, total } = ops[op];
      if (done > 0) fillShape(node, opColor(op), total ? 0.25 + 0.75 * done / total : 1);
    }
  } else if (graphStage === "subtask") {
    const ranOn = new Map(spans.map((row) => [`st${row[4]}`, row[0]]));
    for (const node of svg.querySelectorAll("g.node")) {
      const worker = ranOn.get(node.querySelector("title")?.textContent || "");
      if (worker !== undefined) fillShape(node, workerColor(worker), 0.8);
    }
  }
}

async function start() {
  $("submit").addEventListener("click", submit);
  $("cancel").addEventListener("click", () => selected !== null && cancelJob(selected));
  $("draw").addEventListener("click", draw);
  $("use-token").addEventListener("click", () => { location.href = "/?token=" + encodeURIComponent($("token").value); });
  $("editor").addEventListener("input", () => renderGutter());
  $("editor").addEventListener("scroll", () => { $("gutter").scrollTop = $("editor").scrollTop; });
  renderGutter();
  try {
    const v = await (await api("/version")).json();
    $("server-info").textContent = `v${v.marsc} · ${v.workers} workers/job · ${v.max_jobs} jobs at once`;
    $("workers").max = v.workers; $("workers").value = v.workers;
    connect();
  } catch (e) { /* the login box is shown */ }
}
start();
