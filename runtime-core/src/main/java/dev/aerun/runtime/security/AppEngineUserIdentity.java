package dev.aerun.runtime.security;

import dev.aerun.runtime.contract.UserInfo;
import java.security.Principal;
import java.util.Objects;
import javax.security.auth.Subject;
import org.eclipse.jetty.security.UserIdentity;

/**
 * A signed-in App Engine user: in role {@code *} always, in role {@code admin} if an admin of the
 * app, in no other role. Its principal's name is the user's e-mail, what {@code getRemoteUser()}
 * answers.
 */
public final class AppEngineUserIdentity implements UserIdentity {
  private final UserInfo user;
  private final Principal principal;
  private final Subject subject;

  public AppEngineUserIdentity(UserInfo user) {
    this.user = Objects.requireNonNull(user, "user");
    this.principal = new AppEnginePrincipal(user.email());
    this.subject =
        new Subject(true, java.util.Set.of(principal), java.util.Set.of(), java.util.Set.of());
  }

  /** The user as the front end described it. */
  public UserInfo user() {
    return user;
  }

  @Override
  public Subject getSubject() {
    return subject;
  }

  @Override
  public Principal getUserPrincipal() {
    return principal;
  }

  @Override
  public boolean isUserInRole(String role) {
    return AppEngineUsers.ANY_USER_ROLE.equals(role)
        || (AppEngineUsers.ADMIN_ROLE.equals(role) && user.admin());
  }

  @Override
  public String toString() {
    return "AppEngineUser[" + user.email() + (user.admin() ? ", admin" : "") + "]";
  }

  /** The user's e-mail as a principal. */
  record AppEnginePrincipal(String getName) implements Principal {}
}
