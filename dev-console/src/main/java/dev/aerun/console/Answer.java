package dev.aerun.console;

/**
 * What a console page or action answers: a page ({@code status}, {@code title}, its HTML {@code
 * body}) or, after an action, a redirect to the page that shows its effect.
 *
 * @param location where a redirect goes (a path of the console), else null
 */
record Answer(int status, String title, String body, String location) {
  static Answer page(String title, String body) {
    return new Answer(200, title, body, null);
  }

  /** A page saying what went wrong; {@code message} is text, escaped here. */
  static Answer error(int status, String title, String message) {
    return new Answer(
        status,
        title,
        new Html().tag("<p class=\"error\">").text(message).tag("</p>").toString(),
        null);
  }

  /** 303 to {@code location} (a console path with its query), after an action. */
  static Answer redirect(String location) {
    return new Answer(303, "", "", location);
  }
}
