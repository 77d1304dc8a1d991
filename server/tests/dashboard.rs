//! The dashboard in headless Chromium (fantoccini over chromedriver): submit a
//! script from the page, watch it reach SUCCEEDED, read its output, progress by op
//! and task stream on the page, then cancel a long job from the page. Screenshots
//! go to `target/dashboard-screenshots/`. Skipped, loudly, only when Chromium or
//! chromedriver is not installed (`.ci/run` installs both).

mod common;

use common::{default_config, start, LONG, TOKEN};
use fantoccini::{ClientBuilder, Locator};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";

fn chromedriver() -> Option<PathBuf> {
    ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.exists())
}

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free port")
}

fn screenshots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/dashboard-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    dir
}

const SCRIPT: &str = "import mars.tensor as mt\n\
a = mt.random.rand(600, 600, chunks=150)\n\
b = (a @ a.T).sum(axis=0)\n\
print('shape:', b.shape)\n\
print('positive:', b.sum() > 0)\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dashboard_submits_shows_and_cancels_jobs() {
    let Some(driver_path) = chromedriver().filter(|_| Path::new(CHROMIUM).exists()) else {
        eprintln!("SKIPPED the_dashboard_submits_shows_and_cancels_jobs: {CHROMIUM} or chromedriver is not installed (apt-get install chromium chromium-driver)");
        return;
    };
    let server = start(default_config());
    let port = free_port();
    let _driver = Driver(
        Command::new(driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_string(),
        json!({
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1100"],
        }),
    );
    let webdriver = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    let browser = loop {
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&webdriver)
            .await
        {
            Ok(browser) => break browser,
            Err(error) if started.elapsed() < Duration::from_secs(20) => {
                let _ = error;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(error) => panic!("cannot start Chromium through chromedriver: {error}"),
        }
    };
    let shots = screenshots();
    let outcome = drive(&browser, &server, &shots).await;
    if outcome.is_err() {
        let _ = save(&browser, &shots, "failure.png").await;
        if let Ok(errors) = browser.execute("return window.marscErrors;", vec![]).await {
            eprintln!("page errors: {errors}");
        }
    }
    let _ = browser.close().await;
    outcome.unwrap_or_else(|error| panic!("{error}"));
    drop(server);
}

async fn drive(
    browser: &fantoccini::Client,
    server: &marsc_server::Running,
    shots: &Path,
) -> Result<(), String> {
    let fail = |what: &str| {
        let what = what.to_string();
        move |error: fantoccini::error::CmdError| format!("{what}: {error}")
    };
    let wait = Duration::from_secs(60);
    // The URL `marsc serve` prints: it sets the cookie and lands on the page.
    browser
        .goto(&format!("{}/?token={TOKEN}", server.base()))
        .await
        .map_err(fail("open the page"))?;
    browser
        .wait()
        .at_most(wait)
        .for_element(Locator::XPath("//span[@id='conn' and text()='live']"))
        .await
        .map_err(fail("the event stream connects"))?;
    browser
        .execute(
            "document.getElementById('editor').value = arguments[0]; document.getElementById('editor').dispatchEvent(new Event('input'));",
            vec![json!(SCRIPT)],
        )
        .await
        .map_err(fail("type the script"))?;
    browser
        .find(Locator::Id("submit"))
        .await
        .map_err(fail("find Run"))?
        .click()
        .await
        .map_err(fail("click Run"))?;
    browser
        .wait()
        .at_most(wait)
        .for_element(Locator::XPath(
            "//span[@id='job-state' and text()='SUCCEEDED']",
        ))
        .await
        .map_err(fail("the job succeeds"))?;
    let output = browser
        .wait()
        .at_most(wait)
        .for_element(Locator::XPath(
            "//pre[@id='output' and contains(., 'positive:')]",
        ))
        .await
        .map_err(fail("the output shows"))?
        .text()
        .await
        .map_err(fail("read the output"))?;
    if !output.starts_with("shape: (600,)") {
        return Err(format!("unexpected output on the page: {output:?}"));
    }
    let ops = browser
        .find_all(Locator::Css("#ops .op"))
        .await
        .map_err(fail("progress by op"))?;
    if ops.is_empty() {
        return Err("no progress bars by op".to_string());
    }
    // Each worker's memory.
    let workers = browser
        .find_all(Locator::Css("#workers-panel .worker"))
        .await
        .map_err(fail("the workers panel"))?;
    if workers.len() != 2 {
        return Err(format!("{} worker rows, not 2", workers.len()));
    }
    // The subtask graph, every subtask coloured by the worker that ran it.
    draw_graph(browser, "subtask").await?;
    let coloured = browser
        .execute(
            "const nodes = [...document.querySelectorAll('#graph svg g.node')]; \
             return [nodes.length, nodes.filter((n) => n.querySelector('[fill-opacity]')).length];",
            vec![],
        )
        .await
        .map_err(fail("count coloured subtasks"))?;
    if coloured[0] != coloured[1] || coloured[0].as_u64().unwrap_or(0) < 10 {
        return Err(format!("[subtasks, coloured] = {coloured} after success"));
    }
    save(browser, shots, "0-subtasks.png").await?;
    // The tileable graph, its ops filled as done.
    draw_graph(browser, "tileable").await?;
    save(browser, shots, "1-succeeded.png").await?;

    // A diagnostic is shown on its line.
    browser
        .execute(
            "document.getElementById('editor').value = arguments[0]; document.getElementById('editor').dispatchEvent(new Event('input'));",
            vec![json!("import mars.tensor as mt\nx = mt.ones(3)\nprint(x + nope)\n")],
        )
        .await
        .map_err(fail("type a bad script"))?;
    browser
        .find(Locator::Id("submit"))
        .await
        .map_err(fail("find Run"))?
        .click()
        .await
        .map_err(fail("click Run"))?;
    browser
        .wait()
        .at_most(wait)
        .for_element(Locator::XPath(
            "//li[@class='diagnostic' and starts-with(., '3:11')]",
        ))
        .await
        .map_err(fail("the diagnostic shows with its line and column"))?;
    browser
        .wait()
        .at_most(wait)
        .for_element(Locator::Css("#gutter .mark"))
        .await
        .map_err(fail("the line is marked"))?;
    save(browser, shots, "2-diagnostic.png").await?;

    // A long job, cancelled from the page.
    browser
        .execute(
            "document.getElementById('editor').value = arguments[0]; document.getElementById('editor').dispatchEvent(new Event('input'));",
            vec![json!(LONG)],
        )
        .await
        .map_err(fail("type the long script"))?;
    browser
        .find(Locator::Id("submit"))
        .await
        .map_err(fail("find Run"))?
        .click()
        .await
        .map_err(fail("click Run"))?;
    browser
        .wait()
        .at_most(wait)
        .for_element(Locator::XPath(
            "//span[@id='job-state' and text()='RUNNING']",
        ))
        .await
        .map_err(fail("the long job runs"))?;
    // The graph of a running job fills in as it goes.
    draw_graph(browser, "tileable").await?;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    save(browser, shots, "3-running.png").await?;
    browser
        .find(Locator::Id("cancel"))
        .await
        .map_err(fail("find Cancel"))?
        .click()
        .await
        .map_err(fail("click Cancel"))?;
    browser
        .wait()
        .at_most(wait)
        .for_element(Locator::XPath(
            "//span[@id='job-state' and text()='CANCELLED']",
        ))
        .await
        .map_err(fail("the long job is cancelled"))?;
    save(browser, shots, "4-cancelled.png").await?;
    let errors = browser
        .execute("return window.marscErrors;", vec![])
        .await
        .map_err(fail("read page errors"))?;
    if errors != json!([]) {
        return Err(format!("JavaScript errors on the page: {errors}"));
    }
    Ok(())
}

/// Picks a graph stage, clicks Draw and waits for its coloured nodes.
async fn draw_graph(browser: &fantoccini::Client, stage: &str) -> Result<(), String> {
    browser
        .execute(
            "document.getElementById('stage').value = arguments[0];",
            vec![json!(stage)],
        )
        .await
        .map_err(|error| format!("pick the {stage} graph: {error}"))?;
    browser
        .find(Locator::Id("draw"))
        .await
        .map_err(|error| format!("find Draw: {error}"))?
        .click()
        .await
        .map_err(|error| format!("click Draw: {error}"))?;
    browser
        .wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Css("#graph svg g.node [fill-opacity]"))
        .await
        .map_err(|error| format!("the {stage} graph is drawn and coloured: {error}"))?;
    Ok(())
}

async fn save(browser: &fantoccini::Client, shots: &Path, name: &str) -> Result<(), String> {
    let png = browser
        .screenshot()
        .await
        .map_err(|error| format!("screenshot {name}: {error}"))?;
    std::fs::write(shots.join(name), png).map_err(|error| format!("write {name}: {error}"))
}
