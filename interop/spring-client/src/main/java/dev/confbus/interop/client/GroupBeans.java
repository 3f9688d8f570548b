package dev.confbus.interop.client;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.cloud.context.config.annotation.RefreshScope;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One bean read once at start-up, one rebuilt after a refresh (the seed's /static and /dynamic). */
@Configuration(proxyBeanMethods = false)
public class GroupBeans {
    /** Holder so the controller can tell the two beans apart by type. */
    public record StaticGroup(Group group) {}

    /** Holder for the refreshable bean: a class (not a record) so the scoped proxy can subclass it. */
    public static class DynamicGroup {
        private final Group group;

        public DynamicGroup(Group group) {
            this.group = group;
        }

        public Group group() {
            return group;
        }
    }

    @Bean
    public StaticGroup staticGroup(
            @Value("${group.profile:#{null}}") String profile, @Value("${group.comment:#{null}}") String comment) {
        return new StaticGroup(new Group(profile, comment));
    }

    @Bean
    @RefreshScope
    public DynamicGroup dynamicGroup(
            @Value("${group.profile:#{null}}") String profile, @Value("${group.comment:#{null}}") String comment) {
        return new DynamicGroup(new Group(profile, comment));
    }
}
