package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.util.Fields;

/**
 * Mail: the messages the app sent through the Mail service, newest first, their HTML shown as
 * source (never rendered); clear them.
 */
final class MailSection implements ConsoleSection {
  private static final String PATH = ConsoleHandler.PREFIX + "mail";

  private final Mail mail;

  MailSection(Mail mail) {
    this.mail = mail;
  }

  @Override
  public String name() {
    return "mail";
  }

  @Override
  public String title() {
    return "Mail";
  }

  @Override
  public Set<String> pages() {
    return Set.of("");
  }

  @Override
  public Set<String> actions() {
    return Set.of("clear");
  }

  @Override
  public Answer pageBlocking(String page, Fields query, String token)
      throws ApiCallException, InterruptedException {
    List<Mail.Message> sent = mail.sentBlocking();
    Html html = new Html();
    html.done("cleared".equals(query.getValue("done")) ? "The sent messages were cleared." : null);
    html.tag(
        "<p class=\"note\">The messages the app sent since the local API host started. The"
            + " development server delivers none.</p>\n");
    if (sent.isEmpty()) {
      html.tag("<p class=\"note\">None yet.</p>\n");
    } else {
      html.actionForm(PATH + "/clear", token, "Clear the list");
    }
    for (int i = sent.size() - 1; i >= 0; i--) {
      Mail.Message m = sent.get(i);
      html.tag("<h2>").text(m.subject().isEmpty() ? "(no subject)" : m.subject()).tag("</h2>\n");
      html.tag("<table>");
      row(html, "From", m.sender());
      row(html, "Reply-To", m.replyTo());
      row(html, "To", String.join(", ", m.to()));
      row(html, "Cc", String.join(", ", m.cc()));
      row(html, "Bcc", String.join(", ", m.bcc()));
      for (Map.Entry<String, String> header : m.headers()) {
        row(html, header.getKey(), header.getValue());
      }
      for (Map.Entry<String, Integer> attachment : m.attachments()) {
        row(html, "Attachment", attachment.getKey() + " (" + attachment.getValue() + " bytes)");
      }
      html.tag("</table>\n");
      if (!m.textBody().isEmpty()) {
        html.tag("<h3>Text</h3>").element("pre", m.textBody()).tag("\n");
      }
      if (!m.htmlBody().isEmpty()) {
        html.tag("<h3>HTML (its source)</h3>").element("pre", m.htmlBody()).tag("\n");
      }
    }
    return Answer.page(title(), html.toString());
  }

  private static void row(Html html, String name, String value) {
    if (!value.isEmpty()) {
      html.tag("<tr>").element("th", name).element("td", value).tag("</tr>");
    }
  }

  @Override
  public Answer actBlocking(String action, Fields form)
      throws ApiCallException, InterruptedException {
    mail.clearBlocking();
    return Answer.redirect(Html.url(PATH, "done", "cleared"));
  }
}
