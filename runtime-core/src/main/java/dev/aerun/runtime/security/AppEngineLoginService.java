package dev.aerun.runtime.security;

import java.util.function.Function;
import org.eclipse.jetty.security.IdentityService;
import org.eclipse.jetty.security.LoginService;
import org.eclipse.jetty.security.UserIdentity;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Session;

/**
 * The login service of App Engine apps: the user is whoever the trusted front end said signed in
 * (see {@link AppEngineUsers}). There is nothing to check a user name or password against, so
 * {@link #login} ignores both and answers the request's user; there is no session of its own
 * either: every request carries its user.
 */
public final class AppEngineLoginService implements LoginService {
  private IdentityService identityService;

  @Override
  public String getName() {
    return "App Engine";
  }

  /** The request's signed-in user, or null if it has none; the name and credentials are ignored. */
  @Override
  public UserIdentity login(
      String username,
      Object credentials,
      Request request,
      Function<Boolean, Session> getOrCreateSession) {
    return request == null ? null : AppEngineUsers.identity(request);
  }

  @Override
  public boolean validate(UserIdentity user) {
    return user instanceof AppEngineUserIdentity;
  }

  @Override
  public IdentityService getIdentityService() {
    return identityService;
  }

  @Override
  public void setIdentityService(IdentityService service) {
    identityService = service;
  }

  @Override
  public void logout(UserIdentity user) {
    // Signing out happens at the front end (or the development login page), not here.
  }
}
