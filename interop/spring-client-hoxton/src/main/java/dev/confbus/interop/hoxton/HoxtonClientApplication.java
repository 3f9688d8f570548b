package dev.confbus.interop.hoxton;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The seed-era (Boot 2.3, Hoxton) config client and bus member for confbus's interop tests. */
@SpringBootApplication
public class HoxtonClientApplication {
    public static void main(String[] args) {
        SpringApplication.run(HoxtonClientApplication.class, args);
    }
}
