package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The operator dashboard in headless Chromium: signed in as a viewer it lists a job that just
 * completed and one that expired, opens one, and offers neither cancel nor reconcile; signed in as
 * an operator, its cancel button cancels a queued job (the API and the spy confirm it) and
 * reconcile runs a pass. Screenshots: target/dashboard-viewer.png, target/dashboard-operator.png.
 */
@ExtendWith(ArquillianExtension.class)
class DashboardIT extends SpyBackedDeployment {

    @Test
    void aViewerSeesOutcomesWithoutButtonsAndAnOperatorCancels() throws Exception {
        List<String> completed = Jobs.occupyConsumers(spy, 0, 1_000);
        String expired = Jobs.newId("dash-expired");
        Jobs.submit(Jobs.envelope(expired, Jobs.now() + 600, "spy-ok"));
        completed.forEach(id -> Jobs.awaitOutcome(id, Duration.ofSeconds(30)));
        assertEquals("EXPIRED_NOT_STARTED", Jobs.awaitOutcome(expired, Duration.ofSeconds(30)).getString("outcome"));

        WebDriver browser = Browser.open();
        try {
            browser.get(ItConfig.baseUrl() + "/");
            signIn(browser, "viewer");
            assertEquals("COMPLETED", cell(browser, completed.get(0), 2));
            assertEquals("EXPIRED_NOT_STARTED", cell(browser, expired, 2));
            row(browser, completed.get(0)).click();
            Browser.await(browser, "the job opened", d -> textIs(d, "#job-state", "COMPLETED"));
            assertFalse(browser.findElement(By.id("cancel")).isDisplayed(), "no cancel button for a viewer");
            assertFalse(browser.findElement(By.id("reconcile")).isDisplayed(), "no reconcile button for a viewer");
            assertFalse(browser.findElement(By.id("login")).isDisplayed(), "the sign-in form is gone");
            assertTrue(browser.findElements(By.cssSelector("#job-timeline circle")).size() >= 5, "the job's timeline");
            assertTrue(browser.findElements(By.cssSelector("#timeline-chart rect")).size() >= 1, "the outcome chart");
            // each model backend with its declared limits: it-limited's nginx allows 60 requests a minute
            WebElement limited = Browser.await(browser, "it-limited's backend in the backends table", d -> d
                    .findElements(By.cssSelector("#backends-body tr[data-backend='http://127.0.0.1:14888/v1']")).stream()
                    .findFirst().orElse(null));
            assertEquals("60", limited.findElements(By.tagName("td")).get(1).getText(), limited.getText());
            // the default backend answered the holders: this server's p50 and p95 of them, in ms
            assertTrue(Browser.await(browser, "a backend with answers and their latency", d -> d
                    .findElements(By.cssSelector("#backends-body tr")).stream()
                    .filter(tr -> tr.findElements(By.tagName("td")).get(8).getText().endsWith(" ms"))
                    .findFirst().orElse(null)).isDisplayed());
            // predictive admission per workload: the test domain runs incident-summary in shadow
            WebElement admission = Browser.await(browser, "incident-summary's predictive admission", d -> d
                    .findElements(By.cssSelector("#admission-body tr[data-admission='incident-summary']")).stream()
                    .findFirst().orElse(null));
            assertEquals("shadow", admission.findElements(By.tagName("td")).get(1).getText(), admission.getText());
            // per tenant: the jobs above count as their submitting user's, with its share of the calls
            WebElement tenant = Browser.await(browser, "the submitter's row in the tenants table", d -> d
                    .findElements(By.cssSelector("#tenants-body tr[data-tenant='submitter']")).stream()
                    .findFirst().orElse(null));
            List<WebElement> tenantCells = tenant.findElements(By.tagName("td"));
            assertTrue(Long.parseLong(tenantCells.get(1).getText()) >= completed.size() + 1, tenant.getText());
            assertTrue(tenantCells.get(3).getText().endsWith(" %"), "share of the calls: " + tenant.getText());
            assertTrue(tenantCells.get(5).getText().endsWith(" %"), "on-time rate: " + tenant.getText());
            Browser.screenshot(browser, "dashboard-viewer");

            browser.findElement(By.id("logout")).click();
            signIn(browser, "operator");
            Jobs.occupyConsumers(spy, 0, 5_000);
            String queued = Jobs.newId("dash-cancel");
            Jobs.submit(Jobs.envelope(queued, Jobs.now() + 60_000, "spy-ok"));
            WebElement idField = browser.findElement(By.cssSelector("#job-filter input[name=job]"));
            idField.clear();
            idField.sendKeys(queued);
            browser.findElement(By.cssSelector("#job-filter button")).click();
            Browser.await(browser, "the queued job opened", d -> textIs(d, "#job-id", queued));
            Browser.visible(browser, "#cancel").click();
            assertEquals("CANCELED", Jobs.awaitOutcome(queued, Duration.ofSeconds(30)).getString("outcome"));
            Browser.await(browser, "the page shows the cancel", d -> textIs(d, "#job-state", "CANCELED"));
            assertEquals(List.of(), spy.requestsFor(queued), "a canceled job is never sent");

            Browser.visible(browser, "#reconcile").click();
            Browser.await(browser, "the reconcile result", d -> {
                WebElement result = d.findElement(By.id("reconcile-result"));
                return result.getText().contains("invariant") ? result : null;
            });
            Browser.screenshot(browser, "dashboard-operator");
        } finally {
            browser.quit();
        }
    }

    private static void signIn(WebDriver browser, String user) {
        WebElement form = Browser.visible(browser, "#login");
        form.findElement(By.name("user")).clear();
        form.findElement(By.name("user")).sendKeys(user);
        form.findElement(By.name("password")).clear();
        form.findElement(By.name("password")).sendKeys(ItConfig.user(user).password());
        form.findElement(By.cssSelector("button")).click();
        Browser.await(browser, "signed in as " + user, d -> {
            WebElement who = d.findElement(By.id("who"));
            return who.getText().startsWith(user + " (") ? who : null;
        });
    }

    private static WebElement row(WebDriver browser, String jobId) {
        return Browser.visible(browser, "#jobs-table tr[data-job-id='" + jobId + "']");
    }

    private static String cell(WebDriver browser, String jobId, int column) {
        return row(browser, jobId).findElements(By.tagName("td")).get(column).getText();
    }

    /** The element when its text is {@code text}, else null. */
    private static WebElement textIs(WebDriver d, String css, String text) {
        List<WebElement> found = d.findElements(By.cssSelector(css));
        if (found.isEmpty()) {
            return null;
        }
        WebElement e = found.get(0);
        return text.equals(e.getText()) ? e : null;
    }
}
