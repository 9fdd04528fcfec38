package dev.aerun.console;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes a protobuf message in the wire format, field by field, in the order the calls come: the
 * requests the console sends to the API host. Groups are written with their start and end tags.
 */
final class ProtoWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  ProtoWriter varint(int number, long value) {
    key(out, number, ProtoMessage.VARINT);
    varint(out, value);
    return this;
  }

  ProtoWriter bool(int number, boolean value) {
    return varint(number, value ? 1 : 0);
  }

  ProtoWriter doubleValue(int number, double value) {
    key(out, number, ProtoMessage.FIXED64);
    fixed(out, Double.doubleToRawLongBits(value), 8);
    return this;
  }

  ProtoWriter bytes(int number, byte[] value) {
    key(out, number, ProtoMessage.LENGTH_DELIMITED);
    varint(out, value.length);
    out.writeBytes(value);
    return this;
  }

  ProtoWriter string(int number, String value) {
    return bytes(number, value.getBytes(StandardCharsets.UTF_8));
  }

  ProtoWriter message(int number, ProtoWriter value) {
    return bytes(number, value.toByteArray());
  }

  ProtoWriter group(int number, ProtoWriter value) {
    key(out, number, ProtoMessage.START_GROUP);
    out.writeBytes(value.toByteArray());
    key(out, number, ProtoMessage.END_GROUP);
    return this;
  }

  byte[] toByteArray() {
    return out.toByteArray();
  }

  static void key(ByteArrayOutputStream out, int number, int wireType) {
    varint(out, ((long) number << 3) | wireType);
  }

  static void varint(ByteArrayOutputStream out, long value) {
    while ((value & ~0x7fL) != 0) {
      out.write((int) ((value & 0x7f) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
  }

  static void fixed(ByteArrayOutputStream out, long value, int size) {
    for (int i = 0; i < size; i++) {
      out.write((int) (value >>> (8 * i)) & 0xff);
    }
  }
}
