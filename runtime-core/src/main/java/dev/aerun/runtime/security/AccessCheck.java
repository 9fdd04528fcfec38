package dev.aerun.runtime.security;

import java.util.Objects;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.server.Request;

/**
 * A webapp's constraints applied to what the runtime serves without the webapp's servlet security
 * (its static files), with the same answers: HTTPS first for a transport guarantee, 403 for a
 * forbidden path, a redirect to the login URL for an anonymous request, 403 for a user without the
 * role. What a constraint asks depends on who asks ({@link PathConstraints.Caller}).
 */
public final class AccessCheck {
  private final PathConstraints constraints;
  private final LoginUrls urls;

  public AccessCheck(PathConstraints constraints, LoginUrls urls) {
    this.constraints = Objects.requireNonNull(constraints, "constraints");
    this.urls = Objects.requireNonNull(urls, "urls");
  }

  /** Lets every request through. */
  public static AccessCheck none() {
    return new AccessCheck(PathConstraints.none(), LoginUrls.defaults());
  }

  /**
   * Why {@code request} may not have {@code pathInContext}, or null when it may.
   *
   * @param status 302 or 403
   * @param location where a 302 goes (the login URL, or the {@code https} URL); null for a 403
   */
  public record Refusal(int status, String location) {}

  /** Null when {@code request} may have {@code pathInContext}, else what to answer it. */
  public Refusal refusal(Request request, String pathInContext) {
    if (constraints.isEmpty()) {
      return null;
    }
    Constraint constraint = constraints.forRequest(pathInContext, request);
    if (constraint == null) {
      return null;
    }
    if (constraint.getAuthorization() == Constraint.Authorization.FORBIDDEN) {
      return new Refusal(HttpStatus.FORBIDDEN_403, null);
    }
    if (constraint.getTransport() == Constraint.Transport.SECURE && !request.isSecure()) {
      return new Refusal(HttpStatus.FOUND_302, AppEngineUsers.secureUrl(request.getHttpURI()));
    }
    if (!AppEngineUsers.needsUser(constraint)) {
      return null;
    }
    AppEngineUserIdentity user = AppEngineUsers.identity(request);
    if (user == null) {
      return new Refusal(HttpStatus.FOUND_302, urls.loginUrl(AppEngineUsers.requestUrl(request)));
    }
    boolean allowed =
        switch (constraint.getAuthorization()) {
          case ANY_USER, KNOWN_ROLE -> true;
          default -> constraint.getRoles().stream().anyMatch(user::isUserInRole);
        };
    return allowed ? null : new Refusal(HttpStatus.FORBIDDEN_403, null);
  }
}
