package dev.aerun.runtime.server;

import java.util.List;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.QuotedQualityCSV;

/**
 * Which of the server's response codings a request's {@code Accept-Encoding} asks for (RFC 9110
 * §12.5.3): the client's weights decide, the server's order only breaks a tie. A coding the client
 * does not name takes the weight of its {@code *}, if it sent one, and is otherwise not acceptable;
 * a weight of 0 is never chosen. {@code identity} is not one of the codings to choose from: when
 * none is acceptable the answer is sent as it is, even to a client that refused {@code identity}
 * (RFC 9110 §12.1 lets a server disregard the header rather than refuse to answer). Immutable.
 */
final class AcceptEncodingChoice {
  private final List<String> offered;

  /**
   * @param offered the codings the server can send, most preferred first
   */
  AcceptEncodingChoice(List<String> offered) {
    this.offered = List.copyOf(offered);
  }

  /**
   * Whether the request's {@code Accept-Encoding} gives no weights and no {@code *}: then every
   * coding it names is equally welcome, and the server's order among them is the client's choice
   * too. Cheap, for every request: nothing is parsed or allocated.
   */
  static boolean unweighted(HttpFields requestHeaders) {
    // By index: a request's fields are an array, and an iterator would be garbage per request.
    for (int i = 0, size = requestHeaders.size(); i < size; i++) {
      HttpField field = requestHeaders.getField(i);
      if (field.getHeader() == HttpHeader.ACCEPT_ENCODING) {
        String value = field.getValue();
        if (value.indexOf(';') >= 0 || value.indexOf('*') >= 0) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The offered coding the request's {@code Accept-Encoding} fields weigh highest, the earlier
   * offered on a tie; null when none is acceptable (the answer is sent as it is).
   */
  String choose(HttpFields requestHeaders) {
    QuotedQualityCSV accepted = new QuotedQualityCSV();
    for (HttpField field : requestHeaders) {
      if (field.getHeader() == HttpHeader.ACCEPT_ENCODING) {
        accepted.addValue(field.getValue());
      }
    }
    List<QuotedQualityCSV.QualityValue> values = accepted.getQualityValues();
    String best = null;
    double bestWeight = 0;
    for (String coding : offered) {
      double weight = weight(coding, values);
      if (weight > bestWeight) {
        best = coding;
        bestWeight = weight;
      }
    }
    return best;
  }

  /** The weight the client gives {@code coding}: its own entry's, else its {@code *}'s, else 0. */
  private static double weight(String coding, List<QuotedQualityCSV.QualityValue> values) {
    double any = 0;
    for (QuotedQualityCSV.QualityValue value : values) {
      if (value.getValue().equalsIgnoreCase(coding)) {
        return value.getWeight();
      }
      if ("*".equals(value.getValue())) {
        any = value.getWeight();
      }
    }
    return any;
  }
}
