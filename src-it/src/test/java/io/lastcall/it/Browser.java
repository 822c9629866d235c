package io.lastcall.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium through Debian's ChromeDriver (both named by path, so Selenium never
 * looks for or downloads a browser), with the flags that keep it off the network.
 */
public final class Browser {

    private Browser() {
    }

    public static WebDriver open() throws IOException {
        for (String path : new String[] {"/usr/bin/chromium", "/usr/bin/chromedriver"}) {
            if (!new File(path).canExecute()) {
                throw new IllegalStateException(path + " is missing: ./lastcall services --test-tools installs it");
            }
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1280,1600",
                "--user-data-dir=" + Files.createTempDirectory("lastcall-chromium"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver")).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    public static WebElement await(WebDriver driver, String what, java.util.function.Function<WebDriver, WebElement> find) {
        return new WebDriverWait(driver, Duration.ofSeconds(30)).withMessage(what).until(find);
    }

    public static WebElement visible(WebDriver driver, String css) {
        return await(driver, css + " visible", d -> d.findElements(By.cssSelector(css)).stream()
                .filter(WebElement::isDisplayed).findFirst().orElse(null));
    }

    /** Saves what the browser shows under target/. */
    public static Path screenshot(WebDriver driver, String name) throws IOException {
        Path target = Path.of("target", name + ".png");
        Files.createDirectories(target.getParent());
        Files.copy(((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath(), target,
                StandardCopyOption.REPLACE_EXISTING);
        return target;
    }
}
