package dev.aerun.runtime.security;

import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.contract.UserInfo;
import dev.aerun.runtime.dev.DeveloperHandler;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Attributes;

/**
 * Who a request is, for login and roles. The answer comes only from the {@link RequestAttributes}
 * the request contract set (or, in development, the login page's cookie): headers are never read
 * here, so a peer the contract does not trust can never become a user, an admin, cron or a task.
 */
public final class AppEngineUsers {
  /** Any signed-in user. */
  public static final String ANY_USER_ROLE = "*";

  /** An admin of the app ({@code X-AppEngine-User-Is-Admin}). */
  public static final String ADMIN_ROLE = "admin";

  /** The authentication type the servlet API reports ({@code getAuthType()}). */
  public static final String AUTH_TYPE = "Google Login";

  private AppEngineUsers() {}

  /** The signed-in user of {@code request}, or null for an anonymous request. */
  public static UserInfo user(Attributes request) {
    if (!(request.getAttribute(RequestAttributes.USER_EMAIL) instanceof String email)
        || email.isEmpty()) {
      return null;
    }
    return new UserInfo(
        email,
        string(request, RequestAttributes.USER_ID),
        string(request, RequestAttributes.USER_NICKNAME),
        Boolean.TRUE.equals(request.getAttribute(RequestAttributes.USER_IS_ADMIN)),
        string(request, RequestAttributes.USER_AUTH_DOMAIN),
        string(request, RequestAttributes.USER_ORGANIZATION));
  }

  /**
   * Whether {@code request} is the platform's own: a cron or task-queue request, or one with {@code
   * X-Google-Internal-SkipAdminCheck: true}, from a trusted front end. Such requests pass role
   * constraints and transport guarantees, as on the platform.
   */
  public static boolean isPlatformCaller(Attributes request) {
    return Boolean.TRUE.equals(request.getAttribute(RequestAttributes.CRON))
        || request.getAttribute(RequestAttributes.QUEUE_NAME) != null
        || Boolean.TRUE.equals(request.getAttribute(RequestAttributes.SKIP_ADMIN_CHECK));
  }

  /**
   * Who {@code request} comes from as far as constraints care: the platform ({@link
   * #isPlatformCaller}), the developer at this machine ({@link DeveloperHandler}, development
   * only), or anyone.
   */
  public static PathConstraints.Caller caller(Attributes request) {
    if (isPlatformCaller(request)) {
      return PathConstraints.Caller.PLATFORM;
    }
    return DeveloperHandler.isDeveloper(request)
        ? PathConstraints.Caller.DEVELOPER
        : PathConstraints.Caller.ANYONE;
  }

  /**
   * What every EE's authenticator answers {@code request} with: its signed-in user; for an
   * anonymous one, nobody if the app only asked ({@code deferred}: {@code getUserPrincipal} on an
   * unprotected path), else a redirect to the login URL.
   */
  public static Login login(Request request, LoginUrls urls, boolean deferred) {
    AppEngineUserIdentity user = identity(request);
    if (user != null || deferred) {
      return new Login(user, null);
    }
    return new Login(null, urls.loginUrl(requestUrl(request)));
  }

  /**
   * An authenticator's answer: the {@code user}, or (when null) a {@code redirect} to the login
   * URL, or neither: nobody.
   */
  public record Login(AppEngineUserIdentity user, String redirect) {}

  /** The identity of {@code request}'s signed-in user, or null if anonymous. */
  public static AppEngineUserIdentity identity(Attributes request) {
    UserInfo user = user(request);
    return user == null ? null : new AppEngineUserIdentity(user);
  }

  /**
   * Whether {@code constraint} needs a user (a role, or any signed-in user): what makes a webapp
   * need the login service. Jetty's own default constraints only forbid methods.
   */
  public static boolean needsUser(Constraint constraint) {
    return constraint != null
        && switch (constraint.getAuthorization()) {
          case ANY_USER, KNOWN_ROLE, SPECIFIC_ROLE -> true;
          default -> false;
        };
  }

  /** The full URL of {@code request}, the one to come back to after signing in. */
  public static String requestUrl(Request request) {
    return request.getHttpURI().asString();
  }

  /**
   * The {@code https} URL of {@code uri}, for a transport guarantee: same host, the default port
   * (the request's own port serves plain HTTP).
   */
  public static String secureUrl(HttpURI uri) {
    return HttpURI.build(uri).scheme("https").port(-1).asString();
  }

  private static String string(Attributes request, String name) {
    return request.getAttribute(name) instanceof String value ? value : null;
  }
}
