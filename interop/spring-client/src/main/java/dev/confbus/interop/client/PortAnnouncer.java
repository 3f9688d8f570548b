package dev.confbus.interop.client;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Prints the port the web server bound (the tests start it with server.port=0), in one line the test
 * harness looks for; readiness itself is then checked through /actuator/health.
 */
@Component
public class PortAnnouncer implements ApplicationListener<WebServerInitializedEvent> {
    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        System.out.println("confbus-interop: listening on port " + event.getWebServer().getPort());
        System.out.flush();
    }
}
