package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The mail the app sent, as the local API host keeps it: {@code mail.GetSentMessages} and {@code
 * mail.ClearSentMessages} ({@code GetSentMessagesResponse {sent_message = 1}}, {@code MailMessage
 * {Sender = 1, ReplyTo = 2, To = 3, Cc = 4, Bcc = 5, Subject = 6, TextBody = 7, HtmlBody = 8,
 * Attachment = 9 {FileName = 1, Data = 2}, Header = 10 {name = 1, value = 2}}}).
 */
final class Mail {
  private final HostCalls host;

  Mail(HostCalls host) {
    this.host = host;
  }

  /**
   * A message as the app gave it to the Mail service.
   *
   * @param attachments each attachment's file name and size in bytes
   */
  record Message(
      String sender,
      String replyTo,
      List<String> to,
      List<String> cc,
      List<String> bcc,
      String subject,
      String textBody,
      String htmlBody,
      List<Map.Entry<String, Integer>> attachments,
      List<Map.Entry<String, String>> headers) {}

  /** Every message sent since the host started (or was last cleared), oldest first. */
  List<Message> sentBlocking() throws ApiCallException, InterruptedException {
    List<Message> messages = new ArrayList<>();
    for (ProtoMessage m :
        ProtoMessage.parse(host.callBlocking("mail", "GetSentMessages", new byte[0])).messages(1)) {
      List<Map.Entry<String, Integer>> attachments = new ArrayList<>();
      for (ProtoMessage a : m.messages(9)) {
        attachments.add(Map.entry(a.string(1), a.bytes(2).length));
      }
      List<Map.Entry<String, String>> headers = new ArrayList<>();
      for (ProtoMessage h : m.messages(10)) {
        headers.add(Map.entry(h.string(1), h.string(2)));
      }
      messages.add(
          new Message(
              m.string(1),
              m.string(2),
              m.strings(3),
              m.strings(4),
              m.strings(5),
              m.string(6),
              m.string(7),
              m.string(8),
              List.copyOf(attachments),
              List.copyOf(headers)));
    }
    return messages;
  }

  /** Forgets the sent messages. */
  void clearBlocking() throws ApiCallException, InterruptedException {
    host.callBlocking("mail", "ClearSentMessages", new byte[0]);
  }
}
