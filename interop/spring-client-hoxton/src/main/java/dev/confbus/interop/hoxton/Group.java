package dev.confbus.interop.hoxton;

/** The `group.*` keys the tests change: the same JSON as confbus's sample client (Java 11 source: no record). */
public class Group {
    private final String profile;
    private final String comment;

    public Group(String profile, String comment) {
        this.profile = profile;
        this.comment = comment;
    }

    public String getProfile() {
        return profile;
    }

    public String getComment() {
        return comment;
    }
}
