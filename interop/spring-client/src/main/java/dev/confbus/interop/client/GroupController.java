package dev.confbus.interop.client;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class GroupController {
    private final GroupBeans.StaticGroup staticGroup;
    private final GroupBeans.DynamicGroup dynamicGroup;

    public GroupController(GroupBeans.StaticGroup staticGroup, GroupBeans.DynamicGroup dynamicGroup) {
        this.staticGroup = staticGroup;
        this.dynamicGroup = dynamicGroup;
    }

    @GetMapping("/static")
    public Group staticGroup() {
        return staticGroup.group();
    }

    @GetMapping("/dynamic")
    public Group dynamicGroup() {
        return dynamicGroup.group();
    }
}
