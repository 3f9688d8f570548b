package dev.confbus.interop.hoxton;

import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/** Prints the port the web server bound, in the line the test harness looks for (see the current client). */
@Component
public class PortAnnouncer implements ApplicationListener<WebServerInitializedEvent> {
    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        System.out.println("confbus-interop: listening on port " + event.getWebServer().getPort());
        System.out.flush();
    }
}
