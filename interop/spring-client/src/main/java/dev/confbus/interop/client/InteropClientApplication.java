package dev.confbus.interop.client;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Spring Boot config client and bus member for confbus's interop tests. */
@SpringBootApplication
public class InteropClientApplication {
    public static void main(String[] args) {
        SpringApplication.run(InteropClientApplication.class, args);
    }
}
