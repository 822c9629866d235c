package io.lastcall.it;

import io.lastcall.it.probe.BlockingProbeMdb;
import io.lastcall.it.probe.FlakyProbeMdb;
import io.lastcall.it.probe.ProbeQueues;
import io.lastcall.it.probe.ReleaseProbeMdb;
import io.lastcall.it.probe.SlowProbeMdb;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

/**
 * The EAR under test: the real lastcall.ear as the build made it, plus an EJB module of probe
 * MDBs. For the PostgreSQL run the ledger's persistence unit and its schema migration are
 * pointed at jdbc/lastcall-pg; nothing else differs.
 */
public final class Deployments {

    static final String EJB_MODULE = "lastcall-ejb.jar";
    static final String PROBE_MODULE = "lastcall-it-probes.jar";

    private Deployments() {
    }

    public static EnterpriseArchive lastcallWithProbes() {
        return lastcallWithProbes(Map.of());
    }

    /**
     * As {@link #lastcallWithProbes()}, with MicroProfile Config entries for this deployment only
     * (the probe module's META-INF/microprofile-config.properties; the domain's environment still wins).
     */
    public static EnterpriseArchive lastcallWithProbes(Map<String, String> config) {
        return lastcallWithProbes(ItConfig.postgres() ? "jdbc/lastcall-pg" : null, config);
    }

    /**
     * As {@link #lastcallWithProbes(Map)}, with the ledger (persistence unit and schema
     * migration) on the data source {@code ledger}, or on jdbc/lastcall when null.
     */
    public static EnterpriseArchive lastcallWithProbes(String ledger, Map<String, String> given) {
        Map<String, String> config = new java.util.TreeMap<>(given);
        EnterpriseArchive ear = ShrinkWrap.createFromZipFile(EnterpriseArchive.class, ItConfig.ear().toFile());
        ear.setApplicationXML(new StringAsset(withProbeModule(text(ear.get("META-INF/application.xml")))));
        if (ledger != null) {
            ear.delete(EJB_MODULE);
            JavaArchive ejb = ShrinkWrap.createFromZipFile(JavaArchive.class, ItConfig.ejbJar().toFile());
            String persistence = text(ejb.get("META-INF/persistence.xml"));
            String moved = persistence.replace("<jta-data-source>jdbc/lastcall</jta-data-source>",
                    "<jta-data-source>" + ledger + "</jta-data-source>");
            if (moved.equals(persistence)) {
                throw new IllegalStateException("persistence.xml no longer names jdbc/lastcall: " + persistence);
            }
            ejb.delete("META-INF/persistence.xml");
            ejb.addAsManifestResource(new StringAsset(moved), "persistence.xml");
            ear.addAsModule(ejb);
            // the schema migration runs on the same data source
            config.put("lastcall.ledger.datasource", ledger);
        }
        JavaArchive probes = ShrinkWrap.create(JavaArchive.class, PROBE_MODULE).addPackage(ProbeQueues.class.getPackage())
                .addAsManifestResource(new StringAsset(probeBindingsForWildFly()), "jboss-ejb3.xml");
        if (!config.isEmpty()) {
            StringBuilder properties = new StringBuilder();
            config.forEach((key, value) -> properties.append(key).append('=').append(value).append('\n'));
            probes.addAsManifestResource(new StringAsset(properties.toString()), "microprofile-config.properties");
        }
        ear.addAsModule(probes);
        return ear;
    }

    /** Fresh probe queues: nothing left over from an earlier run. */
    public static void freshProbeQueues() {
        Broker.freshQueue(ProbeQueues.FLAKY, ProbeQueues.FLAKY_DLX, ProbeQueues.FLAKY_DEAD);
        Broker.freshQueue(ProbeQueues.BLOCKING, null, null);
        Broker.freshQueue(ProbeQueues.RELEASE, null, null);
        Broker.freshQueue(ProbeQueues.SLOW, null, null);
    }

    /**
     * WildFly binds an MDB to a resource adapter through jboss-ejb3.xml (the probes' activation
     * property "resourceAdapter" is Payara's way); Payara ignores this file.
     */
    private static String probeBindingsForWildFly() {
        StringBuilder xml = new StringBuilder("<jboss:ejb-jar xmlns:jboss=\"urn:jboss:domain:ejb-jar:1.0\""
                + " xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" xmlns:mdb=\"urn:resource-adapter-binding\""
                + " version=\"4.0\" impl-version=\"2.0\"><assembly-descriptor>");
        for (Class<?> mdb : List.of(BlockingProbeMdb.class, FlakyProbeMdb.class, ReleaseProbeMdb.class,
                SlowProbeMdb.class)) {
            xml.append("<mdb:resource-adapter-binding><ejb-name>").append(mdb.getSimpleName())
                    .append("</ejb-name><mdb:resource-adapter-name>#lastcall-connector.rar")
                    .append("</mdb:resource-adapter-name></mdb:resource-adapter-binding>");
        }
        return xml.append("</assembly-descriptor></jboss:ejb-jar>").toString();
    }

    private static String withProbeModule(String applicationXml) {
        String module = "  <module>\n    <ejb>" + PROBE_MODULE + "</ejb>\n  </module>\n  <library-directory>";
        String result = applicationXml.replace("<library-directory>", module);
        if (result.equals(applicationXml)) {
            throw new IllegalStateException("application.xml has no <library-directory>: " + applicationXml);
        }
        return result;
    }

    private static String text(Node node) {
        if (node == null) {
            throw new IllegalStateException("missing entry in the EAR under test");
        }
        try (InputStream in = node.getAsset().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
