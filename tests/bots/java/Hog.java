// A Java bot that holds more than CodinGame's 768 MB: it fills 1 GB of arrays, every page
// written and kept reachable, before its first line. The referee must stop it on memory.
import java.util.ArrayList;
import java.util.List;

public class Hog {
    public static void main(String[] args) throws Exception {
        List<byte[]> kept = new ArrayList<>();
        for (int i = 0; i < 64; i++) {          // 64 x 16 MB
            byte[] block = new byte[16 << 20];
            for (int k = 0; k < block.length; k += 4096) block[k] = 1;
            kept.add(block);
        }
        System.out.println("0 0 2 0 1");
        System.out.println("2 0 2 2 1");
        System.out.flush();
        System.err.println("held " + kept.size() * 16 + " MB");
        System.in.read();
    }
}
