// A Java bot that holds MB megabytes (default 1024, more than CodinGame's 768 MB): it fills
// arrays of 16 MB, every page written and kept reachable, then answers 01_simplest. With
// 1024 the referee must stop it on memory; with 300 an honest bot's heap, it must win.
import java.util.ArrayList;
import java.util.List;

public class Hog {
    public static void main(String[] args) throws Exception {
        int megabytes = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        List<byte[]> kept = new ArrayList<>();
        for (int i = 0; i < megabytes / 16; i++) {
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
