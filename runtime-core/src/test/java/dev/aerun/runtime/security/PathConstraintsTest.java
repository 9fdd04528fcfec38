package dev.aerun.runtime.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.security.Constraint.Authorization;
import org.eclipse.jetty.security.Constraint.Transport;
import org.junit.jupiter.api.Test;

/** How constraints combine, App Engine's way: by path, for every method, the strictest wins. */
class PathConstraintsTest {
  private static final Constraint ADMIN = Constraint.from(AppEngineUsers.ADMIN_ROLE);
  private static final Constraint OPEN = Constraint.ALLOWED;
  private static final Constraint HTTPS = Constraint.from("https", Transport.SECURE);

  private static PathConstraints.Declared all(String path, Constraint c) {
    return new PathConstraints.Declared(path, Set.of(), Set.of(), c);
  }

  private static PathConstraints.Declared only(String path, String method, Constraint c) {
    return new PathConstraints.Declared(path, Set.of(method), Set.of(), c);
  }

  private static PathConstraints.Declared allBut(String path, String method, Constraint c) {
    return new PathConstraints.Declared(path, Set.of(), Set.of(method), c);
  }

  private static final List<String> METHODS =
      List.of("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "PROPFIND");

  @Test
  void aMethodListOrAnOmission_holdsForEveryMethod() {
    PathConstraints constraints =
        PathConstraints.of(
            List.of(only("/methods/*", "GET", ADMIN), allBut("/omitted/*", "GET", ADMIN)));
    for (String method : METHODS) {
      assertEquals(
          Authorization.SPECIFIC_ROLE,
          constraints.forRequest("/methods/x", method).getAuthorization(),
          method);
      assertEquals(
          Authorization.SPECIFIC_ROLE,
          constraints.forRequest("/omitted/x", method.toLowerCase()).getAuthorization(),
          method);
    }
    assertNull(constraints.forRequest("/elsewhere", "POST"));
  }

  @Test
  void onOnePattern_theStrictestWins_andAnOpenConstraintOpensNothing() {
    PathConstraints constraints =
        PathConstraints.of(
            List.of(
                only("/a/*", "GET", ADMIN),
                only("/a/*", "POST", OPEN),
                all("/b/*", Constraint.ANY_USER),
                all("/b/*", HTTPS),
                all("/c/*", Constraint.from("x", "y")),
                all("/c/*", Constraint.from("y", "z")),
                all("/d/*", Constraint.from("x")),
                all("/d/*", Constraint.from("z"))));
    for (String method : METHODS) {
      assertEquals(
          Authorization.SPECIFIC_ROLE, constraints.forRequest("/a/1", method).getAuthorization());
    }
    Constraint b = constraints.forRequest("/b/1", "GET");
    assertEquals(Authorization.ANY_USER, b.getAuthorization());
    assertEquals(Transport.SECURE, b.getTransport());
    assertEquals(Set.of("y"), constraints.forRequest("/c/1", "GET").getRoles());
    assertEquals(Authorization.FORBIDDEN, constraints.forRequest("/d/1", "GET").getAuthorization());
  }

  @Test
  void aConstraintThatForbidsSomeMethods_forbidsThoseOnly_andLeavesTheRestToTheNextPattern() {
    PathConstraints constraints =
        PathConstraints.of(
            List.of(
                all("/", Constraint.ANY_USER),
                only("/", "TRACE", Constraint.FORBIDDEN),
                allBut("/", "TRACE", OPEN),
                only("/files/*", "DELETE", Constraint.FORBIDDEN),
                allBut("/ro/*", "GET", Constraint.FORBIDDEN)));
    assertEquals(Authorization.FORBIDDEN, constraints.forRequest("/x", "TRACE").getAuthorization());
    assertEquals(Authorization.ANY_USER, constraints.forRequest("/x", "GET").getAuthorization());
    assertEquals(
        Authorization.FORBIDDEN, constraints.forRequest("/files/a", "DELETE").getAuthorization());
    assertEquals(
        Authorization.ANY_USER,
        constraints.forRequest("/files/a", "GET").getAuthorization(),
        "a pattern that only forbids DELETE does not open GET");
    assertEquals(Authorization.ANY_USER, constraints.forRequest("/ro/a", "GET").getAuthorization());
    assertEquals(
        Authorization.FORBIDDEN, constraints.forRequest("/ro/a", "PUT").getAuthorization());
  }

  @Test
  void theBestMatchingPatternDecides() {
    PathConstraints constraints =
        PathConstraints.of(
            List.of(
                all("/admin/*", ADMIN),
                all("/admin/public/*", OPEN),
                all("*.secret", Constraint.FORBIDDEN),
                all("/exact", Constraint.ANY_USER)));
    assertEquals(
        Authorization.SPECIFIC_ROLE, constraints.forRequest("/admin/x", "GET").getAuthorization());
    assertEquals(
        Authorization.SPECIFIC_ROLE, constraints.forRequest("/admin", "GET").getAuthorization());
    assertEquals(
        Authorization.ALLOWED, constraints.forRequest("/admin/public/x", "GET").getAuthorization());
    assertEquals(
        Authorization.SPECIFIC_ROLE,
        constraints.forRequest("/admin/x.secret", "GET").getAuthorization(),
        "a prefix pattern wins over an extension pattern, as in the servlet spec");
    assertEquals(
        Authorization.FORBIDDEN, constraints.forRequest("/x.secret", "GET").getAuthorization());
    assertEquals(
        Authorization.ANY_USER, constraints.forRequest("/exact", "GET").getAuthorization());
    assertNull(constraints.forRequest("/exact/more", "GET"));
    assertTrue(PathConstraints.of(List.of()).isEmpty());
  }
}
