# LED power limiter. WS2812-class LEDs draw roughly ma_per_channel at full drive per colour
# channel plus a small quiescent current; the estimate for a scene is taken at its base
# colours (effects only dim), so one number per scene bounds every frame it produces.


class PowerLimiter:
    def __init__(self, leds, budget_ma=400, ma_per_channel=20, ma_idle=1):
        # 400 mA default: a USB 2.0 port gives 500 mA; ~100 mA stays for the Pico, the OLED
        # and the buzzer.
        self.leds = leds
        self.budget = budget_ma
        self.per_ch = ma_per_channel
        self.idle = ma_idle

    def estimate_ma(self, channel_sum, brightness):
        # Current for colour channels summing to channel_sum (0..255 each), drawn at
        # brightness 0..255.
        return self.leds * self.idle + (channel_sum * brightness * self.per_ch) // (255 * 255)

    def limit(self, channel_sum, brightness):
        # The highest brightness <= `brightness` whose estimate stays within the budget.
        avail = self.budget - self.leds * self.idle
        if avail <= 0:
            return 0
        if self.estimate_ma(channel_sum, brightness) <= self.budget:
            return brightness
        b = (avail * 255 * 255) // (channel_sum * self.per_ch)
        return b if b < brightness else brightness

    # The largest channel sum that limit() leaves at `brightness` (-1: none).
    def headroom(self, brightness):
        avail = self.budget - self.leds * self.idle
        if avail <= 0:
            return -1
        drive = brightness * self.per_ch
        if not drive:
            return 255 * 3 * self.leds
        # estimate_ma <= budget  <=>  channel_sum * drive < (avail + 1) * 255 * 255
        return ((avail + 1) * 255 * 255 - 1) // drive
