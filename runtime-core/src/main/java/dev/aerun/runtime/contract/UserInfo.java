package dev.aerun.runtime.contract;

/**
 * The signed-in user the platform front end vouched for ({@code X-AppEngine-User-*}). Fields the
 * front end did not send are null.
 *
 * @param email {@code X-AppEngine-User-Email}
 * @param id {@code X-AppEngine-User-Id}
 * @param nickname {@code X-AppEngine-User-Nickname}
 * @param admin {@code X-AppEngine-User-Is-Admin} is {@code 1} or {@code true}
 * @param authDomain {@code X-AppEngine-Auth-Domain} (or {@code X-AppEngine-User-Auth-Domain})
 * @param organization {@code X-AppEngine-User-Organization}
 */
public record UserInfo(
    String email,
    String id,
    String nickname,
    boolean admin,
    String authDomain,
    String organization) {}
