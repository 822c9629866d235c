package io.lastcall.web;

import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.sql.SQLException;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What an API call answers when something below it failed: JSON, never the server's HTML page
 * with a stack trace. The ledger database not answering is a 503 {@code LEDGER_UNAVAILABLE} with
 * Retry-After (a submission may have been accepted before the failure; submitting the same
 * envelope again is safe, job ids are idempotent); anything else a 500 {@code INTERNAL_ERROR}.
 * Either way the log has the stack trace under an incident id that the answer names.
 */
@Provider
public class FailureMapper implements ExceptionMapper<Exception> {

    private static final Logger LOG = Logger.getLogger(FailureMapper.class.getName());

    @Override
    public Response toResponse(Exception e) {
        if (e instanceof WebApplicationException web) {
            return web.getResponse();
        }
        Refused failure = failure(e);
        return failure.refusal().response(failure.status());
    }

    /** Logs the failure with its stack trace under a new incident id and says what to answer. */
    static Refused failure(Exception e) {
        String incident = UUID.randomUUID().toString();
        boolean ledger = ledgerFailure(e);
        LOG.log(Level.SEVERE, "API call failed (incident " + incident + ")" + (ledger ? ": the ledger database" : ""),
                e);
        if (ledger) {
            return new Refused(503, new Refusal("LEDGER_UNAVAILABLE", "the ledger database did not answer (incident "
                    + incident + "); retry: a job accepted before the failure is kept, and submitting the same"
                    + " envelope again is safe"));
        }
        return new Refused(500, new Refusal("INTERNAL_ERROR", "the request failed on the server (incident " + incident
                + ", in the server log)"));
    }

    static boolean ledgerFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException || t instanceof PersistenceException) {
                return true;
            }
        }
        return false;
    }
}
