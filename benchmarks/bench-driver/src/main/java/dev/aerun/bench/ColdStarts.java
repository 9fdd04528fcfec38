package dev.aerun.bench;

import dev.aerun.bench.Results.ColdStartRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The cold starts of a run, per peer: time to the first 200, RSS, and the steal each saw. */
final class ColdStarts {
  private final Map<String, List<Double>> millis = new LinkedHashMap<>();
  private final Map<String, List<Long>> rss = new LinkedHashMap<>();
  private final Map<String, List<Double>> steal = new LinkedHashMap<>();

  void add(Peer peer, long nanos, long rssBytes, double stealPercent) {
    millis.computeIfAbsent(peer.id, k -> new ArrayList<>()).add(nanos / 1e6);
    rss.computeIfAbsent(peer.id, k -> new ArrayList<>()).add(rssBytes);
    steal.computeIfAbsent(peer.id, k -> new ArrayList<>()).add(stealPercent);
  }

  /**
   * One row per peer that started; its median leaves out the starts {@code rule} calls disturbed
   * when there are others.
   */
  List<ColdStartRow> rows(List<Peer> peers, Steal rule) {
    List<ColdStartRow> rows = new ArrayList<>();
    for (Peer peer : peers) {
      List<Double> times = millis.get(peer.id);
      if (times == null || times.isEmpty()) {
        continue;
      }
      List<Double> stolen = steal.get(peer.id);
      List<Double> undisturbed = new ArrayList<>();
      for (int i = 0; i < times.size(); i++) {
        if (!rule.isDisturbed(stolen.get(i))) {
          undisturbed.add(times.get(i));
        }
      }
      double median = Bench.median(undisturbed.isEmpty() ? times : undisturbed);
      List<Long> sizes = rss.get(peer.id);
      rows.add(new ColdStartRow(peer.id, times, stolen, median, sizes, Bench.medianLong(sizes)));
    }
    return rows;
  }
}
