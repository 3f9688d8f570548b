package dev.confbus.interop.client;

/** The `group.*` keys the tests change: the same JSON as confbus's sample client. */
public record Group(String profile, String comment) {}
