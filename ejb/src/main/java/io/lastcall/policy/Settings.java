package io.lastcall.policy;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import io.lastcall.job.BackendPause;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.Config;

/**
 * Every decision-shaping setting, read from MicroProfile Config one way ({@link ConfigReader}),
 * in typed groups — the model backend, dispatch, ingress, this instance, the clock, the
 * reconciler, retention, the broker topology — beside the workloads' policies and prices. Each
 * default is written once, in its group; docs/configuration.md lists them (ConfigurationTableTest
 * keeps the two equal). Each key is read from Config once and kept ({@link ConfigReader}): settings
 * apply when the server starts.
 */
@ApplicationScoped
public class Settings {

    @Inject
    Config config;

    private ConfigReader reader;
    private ModelSettings model;
    private DispatchSettings dispatch;
    private IngressSettings ingress;
    private InstanceSettings instance;
    private ClockSettings clock;
    private ReconcilerSettings reconciler;
    private RetentionSettings retention;
    private TopologySettings topology;
    private BrokerConnectionSettings broker;
    private SimulatorSettings simulator;

    @PostConstruct
    void read() {
        reader = new ConfigReader(config);
        model = new ModelSettings(reader);
        dispatch = new DispatchSettings(reader);
        ingress = new IngressSettings(reader);
        instance = new InstanceSettings(reader);
        clock = new ClockSettings(reader);
        reconciler = new ReconcilerSettings(reader);
        retention = new RetentionSettings(reader);
        topology = new TopologySettings(reader);
        broker = new BrokerConnectionSettings(reader);
        simulator = new SimulatorSettings(reader);
    }

    public ModelSettings model() {
        return model;
    }

    public DispatchSettings dispatch() {
        return dispatch;
    }

    public IngressSettings ingress() {
        return ingress;
    }

    public InstanceSettings instance() {
        return instance;
    }

    public ClockSettings clock() {
        return clock;
    }

    public ReconcilerSettings reconciler() {
        return reconciler;
    }

    public RetentionSettings retention() {
        return retention;
    }

    public TopologySettings topology() {
        return topology;
    }

    public BrokerConnectionSettings broker() {
        return broker;
    }

    public SimulatorSettings simulator() {
        return simulator;
    }

    /** The data source the schema migration runs on: the persistence unit's. */
    public String ledgerDataSource() {
        return reader.text("lastcall.ledger.datasource", "jdbc/lastcall");
    }

    public Set<Integer> schemaVersions() {
        return Set.of(1);
    }

    public Set<String> workloads() {
        return Set.copyOf(ConfigReader.split(reader.text("lastcall.workloads", Defaults.WORKLOADS)));
    }

    /** The policy of a configured workload, or empty for a name not in {@code lastcall.workloads}. */
    public Optional<WorkloadPolicy> workload(String name) {
        return name != null && workloads().contains(name) ? Optional.of(workloadOrDefault(name)) : Optional.empty();
    }

    /** The policy under {@code lastcall.workload.<name>.*}, falling back key by key to the defaults. */
    public WorkloadPolicy workloadOrDefault(String name) {
        return new WorkloadPolicy(name,
                workloadNumber(name, "max-horizon-ms", 24 * 3_600_000L),
                workloadNumber(name, "ttl-cap-ms", 3_600_000L),
                workloadNumber(name, "max-execution-ms", 60_000L),
                workloadNumber(name, "late-grace-ms", 30_000L),
                !"discard".equalsIgnoreCase(workloadText(name, "late-results", "keep")),
                (int) Math.max(1, workloadNumber(name, "max-attempts", 3)),
                reader.optional("lastcall.workload." + name + ".budget", java.math.BigDecimal.class)
                        .or(() -> reader.optional("lastcall.workload.default.budget", java.math.BigDecimal.class))
                        .orElse(null),
                workloadText(name, "budget-period", "day"),
                AdmissionMode.parse("lastcall.workload." + name + ".predictive-admission",
                        workloadText(name, "predictive-admission", reader.text("lastcall.admission.predictive", "shadow"))),
                Boolean.parseBoolean(workloadText(name, "tenant-from-envelope", "false").trim()));
    }

    private long workloadNumber(String workload, String key, long fallback) {
        return reader.number("lastcall.workload." + workload + "." + key,
                reader.number("lastcall.workload.default." + key, fallback));
    }

    private String workloadText(String workload, String key, String fallback) {
        return reader.text("lastcall.workload." + workload + "." + key,
                reader.text("lastcall.workload.default." + key, fallback));
    }

    public Pricing pricing() {
        return new Pricing(reader.text("lastcall.price.revision", "default-1"),
                key -> reader.optional("lastcall.price." + key, BigDecimal.class));
    }

    /** A workload's own model endpoint ({@code lastcall.workload.<name>.model-base-url}), else the global one. */
    public String modelBaseUrl(String workload) {
        return reader.text("lastcall.workload." + workload + ".model-base-url", model.baseUrl());
    }

    /**
     * The backend of a workload's calls and its per-minute limits: a workload with its own
     * {@code model-base-url} declares them as {@code lastcall.workload.<name>.requests-per-minute} and
     * {@code .tokens-per-minute}; the others share the global backend's
     * {@code lastcall.model.requests-per-minute} and {@code .tokens-per-minute} (default 0: no limit).
     */
    public Backend backend(String workload) {
        String url = modelBaseUrl(workload);
        boolean own = reader.optional("lastcall.workload." + workload + ".model-base-url", String.class).isPresent();
        String prefix = own ? "lastcall.workload." + workload + "." : "lastcall.model.";
        return new Backend(BackendPause.keyOf(url), reader.number(prefix + "requests-per-minute", 0),
                reader.number(prefix + "tokens-per-minute", 0));
    }

    /** The backends of the configured workloads (one per workload; workloads sharing one repeat it). */
    public java.util.List<Backend> backends() {
        return workloads().stream().map(this::backend).toList();
    }

    /**
     * Whether every delivery from a work queue gets a delivery-log row ({@code lastcall.worker.delivery-log},
     * true): the log shows redeliveries and what each message carried; without it a job costs one
     * insert less. Dead-letter deliveries and quarantined messages are always recorded.
     */
    public boolean workerDeliveryLog() {
        return reader.flag("lastcall.worker.delivery-log", true);
    }

    /** The tokenizer that counts prompt tokens for estimates ({@code lastcall.price.tokenizer}). */
    public PromptTokens promptTokens() {
        return new PromptTokens(reader.text("lastcall.price.tokenizer", "o200k_base"));
    }
}
