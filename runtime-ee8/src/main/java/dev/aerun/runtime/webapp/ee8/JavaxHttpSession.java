package dev.aerun.runtime.webapp.ee8;

import java.util.Collections;
import javax.servlet.http.HttpSession;

/**
 * The methods {@code javax.servlet}'s {@link HttpSession} has and {@code jakarta.servlet}'s
 * dropped, each in terms of its successor. The EE8 sources generated from the jakarta ones (see
 * {@code build/source-transform.xml}) implement this instead of {@link HttpSession}, so a session
 * written once for both EE versions is complete on EE8.
 */
interface JavaxHttpSession extends HttpSession {

  @Override
  @SuppressWarnings("deprecation")
  default javax.servlet.http.HttpSessionContext getSessionContext() {
    return null;
  }

  @Override
  default Object getValue(String name) {
    return getAttribute(name);
  }

  @Override
  default String[] getValueNames() {
    return Collections.list(getAttributeNames()).toArray(String[]::new);
  }

  @Override
  default void putValue(String name, Object value) {
    setAttribute(name, value);
  }

  @Override
  default void removeValue(String name) {
    removeAttribute(name);
  }
}
