package dev.confbus.interop.configserver;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.config.server.EnableConfigServer;

/** The real Spring Cloud Config Server, configured entirely by command-line arguments. */
@SpringBootApplication
@EnableConfigServer
public class InteropConfigServerApplication {
    public static void main(String[] args) {
        SpringApplication.run(InteropConfigServerApplication.class, args);
    }
}
