package io.lastcall.web;

import io.lastcall.receipt.DeliveryLog;
import io.lastcall.receipt.DeliveryRecord;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code GET /api/deliveries?queue=q&limit=n}: received messages, newest first. */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("deliveries")
@Produces(MediaType.APPLICATION_JSON)
public class DeliveriesResource {

    /** JSON view of a delivery record. */
    public static class DeliveryView {
        public long id;
        public String message_id;
        public String queue;
        public String body;
        public long received_at;
        public boolean redelivered;

        static DeliveryView of(DeliveryRecord r) {
            DeliveryView v = new DeliveryView();
            v.id = r.getId();
            v.message_id = r.getMessageId();
            v.queue = r.getQueue();
            v.body = r.getBody();
            v.received_at = r.getReceivedAt();
            v.redelivered = r.isRedelivered();
            return v;
        }
    }

    @EJB
    DeliveryLog deliveries;

    @GET
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR})
    public List<DeliveryView> list(@QueryParam("queue") String queue,
            @QueryParam("limit") @DefaultValue("1000") int limit) {
        return deliveries.list(queue, limit).stream().map(DeliveryView::of).toList();
    }
}
