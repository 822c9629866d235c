package io.lastcall;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The ejb module's packages depend one way: each only on packages below it in {@link #LAYERS}
 * (a package in the same row is a peer: neither may use the other), and no cycle between any.
 * A new package goes into its row here, with the reason in its package-info.
 */
class PackageGraphTest {

    /** Bottom first. */
    static final List<Set<String>> LAYERS = List.of(
            Set.of("job", "transport", "group"),   // the domain, HTTP on the wire, group commit: pure, no container
            Set.of("policy"),             // settings and what they decide
            Set.of("schema"),             // the ledger database: migrations, its clock, its probe
            Set.of("clock", "broker", "receipt", "metrics", "operator"),
            Set.of("ledger"),             // reading the ledger
            Set.of("instance", "health"),
            Set.of("ingress"),
            Set.of("dispatch"),
            Set.of("reconcile"));

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.lastcall");

    @Test
    void noCycleBetweenPackages() {
        slices().matching("io.lastcall.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void everyDependencyPointsDown() {
        Set<String> upward = new TreeSet<>();
        for (JavaClass c : CLASSES) {
            String from = packageOf(c);
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = packageOf(d.getTargetClass());
                if (to != null && !to.equals(from) && layer(to) >= layer(from)) {
                    upward.add(from + " -> " + to + " (" + c.getSimpleName() + " uses " + d.getTargetClass().getSimpleName() + ")");
                }
            }
        }
        assertEquals(Set.of(), upward, "dependencies that do not point down");
    }

    @Test
    void everyPackageHasItsLayer() {
        assertTrue(CLASSES.contain("io.lastcall.dispatch.Worker"), "the module's classes were imported");
        Set<String> unplaced = new TreeSet<>();
        CLASSES.forEach(c -> {
            String p = packageOf(c);
            if (p != null && layer(p) < 0) {
                unplaced.add(p);
            }
        });
        assertEquals(Set.of(), unplaced, "packages missing from LAYERS");
    }

    private static int layer(String pkg) {
        for (int i = 0; i < LAYERS.size(); i++) {
            if (LAYERS.get(i).contains(pkg)) {
                return i;
            }
        }
        return -1;
    }

    /** The first segment under io.lastcall, or null for a class outside it. */
    private static String packageOf(JavaClass c) {
        String name = c.getPackageName();
        if (!name.startsWith("io.lastcall.")) {
            return null;
        }
        String rest = name.substring("io.lastcall.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
